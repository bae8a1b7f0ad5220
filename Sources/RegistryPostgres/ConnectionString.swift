import CLibPQ

/// A libpq connection string (URI or `key=value`) as libpq itself reads it, so what is shown
/// of it agrees with what libpq will use, whatever the spelling of the password
/// (`user:secret@`, `?password=secret`, `password = secret`, `password='a b'`).
public enum ConnectionString {
    /// Every field the string sets, as `key=value` in libpq's order, with each secret field
    /// (libpq marks the password and the SSL key password as such) shown as `*****`. A string
    /// libpq cannot parse is shown as a fixed text, since libpq's message may quote it.
    public static func redacted(_ text: String) -> String {
        guard let fields = fields(of: text) else { return "(not a valid libpq connection string)" }
        return fields.map { $0.keyword + "=" + ($0.isSecret ? "*****" : quoted($0.value)) }.joined(separator: " ")
    }

    /// The first line of libpq's message about `text` (a failed connection's reason) with every
    /// secret field's value masked, since libpq may quote what it was given. When libpq cannot
    /// parse `text` at all its message may quote any part of it, so a fixed text stands instead.
    public static func masking(firstLineOf message: String, secretsOf text: String) -> String {
        guard let fields = fields(of: text) else { return "(not a valid libpq connection string)" }
        var line = String(message.prefix { $0 != "\n" })
        for field in fields where field.isSecret && !field.value.isEmpty { line = line.replacing(field.value, with: "*****") }
        return line
    }

    /// Whether `text` names more than one host, so a pool on it may find a standby when the
    /// primary is gone.
    public static func namesSeveralHosts(_ text: String) -> Bool { (fields(of: text).map(hostCount) ?? 1) > 1 }

    private static func hostCount(_ fields: [(keyword: String, value: String, isSecret: Bool)]) -> Int {
        let counts = fields.filter { $0.keyword == "host" || $0.keyword == "hostaddr" }.map {
            $0.value.split(separator: ",", omittingEmptySubsequences: false).count
        }
        return counts.max() ?? 1
    }

    /// Why `text` cannot be the writers' connection string, or nil when it can. libpq accepts
    /// several hosts (`postgresql://h1:5432,h2:5432/db`, `host=h1,h2`) and tries them in turn,
    /// but by default takes the first that answers, which after a failover may be a standby:
    /// every write would then fail. So a string naming several hosts must ask for the primary
    /// (`target_session_attrs=read-write` or `primary`); a standby-only or "any" choice is
    /// what the read URL is for. A string libpq cannot parse is left to the first connection
    /// attempt, whose failure the log and `/readyz` report without quoting it.
    public static func problemForWrites(_ text: String) -> String? {
        guard let fields = fields(of: text) else { return nil }
        guard hostCount(fields) > 1 else { return nil }
        let target = fields.first { $0.keyword == "target_session_attrs" }?.value ?? "any"
        guard target == "read-write" || target == "primary" else {
            return "names several hosts, so it must set target_session_attrs=read-write (or primary) for writes to reach the primary, got \"\(target)\""
        }
        return nil
    }

    /// Every field `text` sets, in libpq's order, each with whether libpq marks it secret (the
    /// password, the SSL key password); nil when libpq cannot parse `text`.
    private static func fields(of text: String) -> [(keyword: String, value: String, isSecret: Bool)]? {
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(text, &error) else {
            if let error { PQfreemem(error) }
            return nil
        }
        defer { PQconninfoFree(options) }
        var fields: [(keyword: String, value: String, isSecret: Bool)] = []
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val {
                let isSecret = option.pointee.dispchar.map { String(cString: $0) == "*" } ?? false
                fields.append((String(cString: keyword), String(cString: value), isSecret))
            }
            option += 1
        }
        return fields
    }

    /// libpq's own quoting for a `key=value` value: single quotes around anything empty or
    /// containing a space, quote or backslash, which are escaped with a backslash.
    private static func quoted(_ value: String) -> String {
        guard value.isEmpty || value.contains(where: { $0 == " " || $0 == "'" || $0 == "\\" }) else { return value }
        return "'" + value.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
}
