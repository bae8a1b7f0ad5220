/// URI references as RFC 3986 resolves them, and JSON pointers (RFC 6901) as fragments, for
/// resolving `$id`, `$ref` and `$dynamicRef` inside one document. Nothing here fetches.
enum SchemaReference {
    /// The URI a document without a root `$id` is known by: no reference written in a schema
    /// can name it by accident, so a relative reference that no `$id` defines stays unresolved.
    static let documentBase = "urn:x-schema-registry:document"

    /// `reference` resolved against `base` (RFC 3986 §5.2).
    static func resolve(_ reference: String, against base: String) -> String {
        let r = URIParts(reference)
        let b = URIParts(base)
        var t = URIParts()
        if r.scheme != nil {
            t = r
            t.path = removeDotSegments(r.path)
        } else {
            if r.authority != nil {
                t.authority = r.authority
                t.path = removeDotSegments(r.path)
                t.query = r.query
            } else {
                if r.path.isEmpty {
                    t.path = b.path
                    t.query = r.query ?? b.query
                } else {
                    t.path = r.path.hasBytePrefix("/") ? removeDotSegments(r.path) : removeDotSegments(merge(b, r.path))
                    t.query = r.query
                }
                t.authority = b.authority
            }
            t.scheme = b.scheme
        }
        t.fragment = r.fragment
        return t.text
    }

    /// The URI without its fragment, and the fragment (empty when absent).
    static func split(_ uri: String) -> (uri: String, fragment: String) {
        guard let hash = uri.utf8.firstIndex(of: UInt8(ascii: "#")) else { return (uri, "") }
        return (String(uri[..<hash]), String(uri[uri.index(after: hash)...]))
    }

    /// `%XX` sequences decoded as UTF-8; nil when they do not form UTF-8.
    static func percentDecoded(_ text: String) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "%"), iterator.count >= 2,
                let value = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The reference tokens of a JSON pointer (`/a~1b/0` → `a/b`, `0`); nil when it is not one.
    static func pointerTokens(_ pointer: String) -> [String]? {
        if pointer.isEmpty { return [] }
        guard pointer.hasBytePrefix("/") else { return nil }
        return pointer.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst().map {
            String(decoding: $0, as: UTF8.self).replacingBytes("~1", with: "/").replacingBytes("~0", with: "~")
        }
    }

    /// `token` escaped for a JSON pointer (`~` → `~0`, `/` → `~1`).
    static func escaped(_ token: String) -> String {
        token.replacingBytes("~", with: "~0").replacingBytes("/", with: "~1")
    }

    private static func merge(_ base: URIParts, _ path: String) -> String {
        if base.authority != nil && base.path.isEmpty { return "/" + path }
        guard let slash = base.path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(base.path[...slash]) + path
    }

    /// RFC 3986 §5.2.4.
    private static func removeDotSegments(_ path: String) -> String {
        guard path.utf8.contains(UInt8(ascii: ".")) else { return path }
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        let absolute = path.hasBytePrefix("/")
        for (index, segment) in segments.enumerated() {
            if index == 0 && absolute { continue }
            let isLast = index == segments.count - 1
            if segment == "." {
                if isLast { output.append("") }
            } else if segment == ".." {
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append("") }
            } else {
                output.append(segment)
            }
        }
        return (absolute ? "/" : "") + output.joined(separator: "/")
    }
}

/// The five components of a URI reference (RFC 3986 §3), split without validation.
private struct URIParts {
    var scheme: String?
    var authority: String?
    var path = ""
    var query: String?
    var fragment: String?

    init() {}

    init(_ text: String) {
        var rest = Substring(text)
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        if let colon = rest.firstIndex(of: ":"), !rest[..<colon].contains("/"), !rest[..<colon].isEmpty,
            rest[..<colon].unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || "0123456789+-.".unicodeScalars.contains($0) })
        {
            scheme = String(rest[..<colon])
            rest = rest[rest.index(after: colon)...]
        }
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            authority = String(rest[..<end])
            rest = rest[end...]
        }
        path = String(rest)
    }

    var text: String {
        var out = ""
        if let scheme { out += scheme + ":" }
        if let authority { out += "//" + authority }
        out += path
        if let query { out += "?" + query }
        if let fragment { out += "#" + fragment }
        return out
    }
}

extension String {
    /// Every occurrence of `target`'s bytes replaced (`replacingOccurrences` compares Characters).
    fileprivate func replacingBytes(_ target: String, with replacement: String) -> String {
        let bytes = Array(utf8), pattern = Array(target.utf8)
        guard bytes.count >= pattern.count, !pattern.isEmpty else { return self }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if i + pattern.count <= bytes.count, bytes[i..<i + pattern.count].elementsEqual(pattern) {
                out.append(contentsOf: replacement.utf8)
                i += pattern.count
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
