import Registry

/// Opaque list page tokens: base64url of `v1:<version>:<attributesType>`, the keyset position
/// of the last item returned. Anything that does not decode to that shape was not issued
/// here and is a 400.
enum PageToken {
    static func encode(_ cursor: ListCursor) -> String {
        Base64URL.encode(Array("v1:\(cursor.version):\(cursor.attributesType)".utf8))
    }

    static func decode(_ token: String) throws(RegistryError) -> ListCursor {
        let invalid = RegistryError.invalidArgument("pageToken: not a page token issued by this service")
        guard let bytes = Base64URL.decode(token), let text = String(validating: bytes, as: UTF8.self) else {
            throw invalid
        }
        // Split by scalars: as characters, a `:` followed by a type name that starts with a
        // combining mark would be one `:\u{301}` and no separator.
        let parts = text.unicodeScalars.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            .map { String(Substring($0)) }
        guard parts.count == 3, parts[0] == "v1", let version = Int32(parts[1]), version >= 1 else { throw invalid }
        let attributesType = parts[2]
        do { try AttributesTypeName.validate(attributesType) } catch { throw invalid }
        return ListCursor(attributesType: attributesType, version: version)
    }

    /// Cuts `rows`, read one past a page, to `size`; the next page's token when there was more.
    static func trim<T>(_ rows: inout [T], to size: Int?, token: (T) -> String) -> String? {
        guard let size, rows.count > size else { return nil }
        rows.removeLast(rows.count - size)
        return rows.last.map(token)
    }
}

/// Audit page tokens: base64url of `a1:<id>`, the id of the last event returned (events are
/// read newest first, so the next page holds smaller ids).
enum AuditPageToken {
    static func encode(_ id: Int64) -> String {
        Base64URL.encode(Array("a1:\(id)".utf8))
    }

    static func decode(_ token: String) throws(RegistryError) -> Int64 {
        guard let bytes = Base64URL.decode(token), let text = String(validating: bytes, as: UTF8.self),
            text.hasBytePrefix("a1:"), let id = Int64(Substring(text.utf8.dropFirst(3))), id >= 1
        else { throw .invalidArgument("pageToken: not a page token issued by this service") }
        return id
    }
}

/// Unpadded base64url (RFC 4648 §5).
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let chunk = Array(bytes[i..<min(i + 3, bytes.count)])
            let n = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (16 - 8 * UInt32($1.offset)) }
            for j in 0...chunk.count { out.append(alphabet[Int((n >> (18 - 6 * UInt32(j))) & 0x3F)]) }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt32] = []
        for byte in text.utf8 {
            guard let index = alphabet.firstIndex(of: byte) else { return nil }
            values.append(UInt32(index))
        }
        guard values.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        var i = 0
        while i < values.count {
            let chunk = values[i..<min(i + 4, values.count)]
            let n = chunk.enumerated().reduce(UInt32(0)) { $0 | $1.element << (18 - 6 * UInt32($1.offset)) }
            for j in 0..<(chunk.count - 1) { out.append(UInt8(truncatingIfNeeded: n >> (16 - 8 * UInt32(j)))) }
            i += 4
        }
        guard encode(out) == text else { return nil }
        return out
    }
}
