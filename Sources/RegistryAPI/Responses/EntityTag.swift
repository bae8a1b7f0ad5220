import Registry

/// Strong entity tags from content hashes, and the `If-None-Match` test, shared by every
/// response that can answer 304 (published versions, forms, panel files).
enum EntityTag {
    /// A quoted tag from the first 128 bits of the body's SHA-256: the same bytes always get
    /// the same tag on every replica, with no stored state.
    static func of(_ body: [UInt8]) -> String {
        "\"" + String(SHA256.hexHash(body).prefix(32)) + "\""
    }

    /// A tag for a representation rendered from stored content, without hashing the rendered
    /// bytes. The URL already names one immutable version, so what can vary is the content,
    /// the kind of representation, and the code that renders it: the salt names the build, so
    /// a release that renders differently never answers 304 for the old bytes.
    static func derived(kind: String, contentHash: [UInt8], salt: String) -> String {
        "\"" + String(SHA256.hexHash(Array(salt.utf8) + [0] + Array(kind.utf8) + [0] + contentHash).prefix(32)) + "\""
    }

    /// A version's tag extended with its number, for a URL that names no version (`latest`):
    /// two versions with identical content share a tag, but `latest` moving from one to the
    /// other is a change its client must see.
    static func naming(version: Int32, _ etag: String) -> String {
        String(etag.dropLast()) + "-v\(version)\""
    }

    /// `If-None-Match` uses weak comparison (RFC 9110 §13.1.2): `*` matches anything and `W/`
    /// prefixes are ignored.
    static func matches(_ header: String?, _ etag: String) -> Bool {
        guard let header else { return false }
        // Compared as bytes: header values are octets, and `==` on strings is canonical
        // equivalence.
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        return header.utf8.split(separator: UInt8(ascii: ",")).contains { candidate in
            var tag = candidate.drop(while: blank)
            while let last = tag.last, blank(last) { tag.removeLast() }
            if tag.elementsEqual("*".utf8) { return true }
            if tag.starts(with: "W/".utf8) { tag = tag.dropFirst(2) }
            return tag.elementsEqual(etag.utf8)
        }
    }
}
