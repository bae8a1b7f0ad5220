import Registry

/// Opaque change-feed cursors: base64url of `c1:<xid>:<id>`, the feed position of the last
/// event handed out. Anything else was not issued here and is a 400.
enum ChangeCursorToken {
    static func encode(_ cursor: ChangeCursor) -> String {
        Base64URL.encode(Array("c1:\(cursor.xid):\(cursor.id)".utf8))
    }

    static func decode(_ token: String, field: String = "after") throws(RegistryError) -> ChangeCursor {
        let invalid = RegistryError.invalidArgument(
            field == "after" ? "after: not a cursor issued by this service (or \"now\")" : "\(field): not a cursor issued by this service")
        guard token.utf8.count <= 64, let bytes = Base64URL.decode(token), let text = String(validating: bytes, as: UTF8.self)
        else { throw invalid }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "c1", let xid = UInt64(parts[1]), let id = Int64(parts[2]), id >= 0 else {
            throw invalid
        }
        return ChangeCursor(xid: xid, id: id)
    }
}
