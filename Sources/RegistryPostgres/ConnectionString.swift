import CLibPQ

/// A libpq connection string (URI or `key=value`) as libpq itself reads it, so what is shown
/// of it agrees with what libpq will use, whatever the spelling of the password
/// (`user:secret@`, `?password=secret`, `password = secret`, `password='a b'`).
public enum ConnectionString {
    /// Every field the string sets, as `key=value` in libpq's order, with each secret field
    /// (libpq marks the password and the SSL key password as such) shown as `*****`. A string
    /// libpq cannot parse is shown as a fixed text, since libpq's message may quote it.
    public static func redacted(_ text: String) -> String {
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(text, &error) else {
            if let error { PQfreemem(error) }
            return "(not a valid libpq connection string)"
        }
        defer { PQconninfoFree(options) }
        var fields: [String] = []
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val {
                let isSecret = option.pointee.dispchar.map { String(cString: $0) == "*" } ?? false
                fields.append(String(cString: keyword) + "=" + (isSecret ? "*****" : quoted(String(cString: value))))
            }
            option += 1
        }
        return fields.joined(separator: " ")
    }

    /// libpq's own quoting for a `key=value` value: single quotes around anything empty or
    /// containing a space, quote or backslash, which are escaped with a backslash.
    private static func quoted(_ value: String) -> String {
        guard value.isEmpty || value.contains(where: { $0 == " " || $0 == "'" || $0 == "\\" }) else { return value }
        return "'" + value.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
}
