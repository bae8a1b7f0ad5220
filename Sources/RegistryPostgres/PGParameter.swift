/// A value sent as a text-format statement parameter. Values always travel as parameters, never
/// spliced into SQL, so no quoting rules apply and the SQL stays a constant that can be prepared.
public protocol PGParameter: Sendable {
    /// PostgreSQL's text input form of the value.
    var pgText: String { get }
}

extension String: PGParameter {
    public var pgText: String { self }
}

extension Int64: PGParameter {
    public var pgText: String { String(self) }
}

extension Int32: PGParameter {
    public var pgText: String { String(self) }
}

extension Int: PGParameter {
    public var pgText: String { String(self) }
}

/// Finite values only (times as Unix seconds); PostgreSQL reads Swift's shortest form.
extension Double: PGParameter {
    public var pgText: String { description }
}

extension Bool: PGParameter {
    public var pgText: String { self ? "true" : "false" }
}

/// Raw bytes for a `bytea` parameter, sent in the `\x` hex input form (text parameters cannot
/// carry the zero bytes a hash contains).
public struct PGBytea: PGParameter, Equatable {
    /// The value as given; encoded only when sent.
    public let bytes: [UInt8]
    /// Wraps bytes so they are not mistaken for text.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// `\x` followed by two lowercase hex digits per byte.
    public var pgText: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
        text.reserveCapacity(2 + bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// A named SQL statement, prepared once per session on first use. The name identifies it in
/// errors and `pg_prepared_statements` without exposing the SQL.
public struct PGStatement: Sendable, Hashable {
    /// Unique per SQL text across the process: a session prepares each name once.
    public let name: String
    /// Constant SQL with `$n` placeholders; values always go as parameters.
    public let sql: String
    /// For statements that are not the service's (tests); the service's come from its SQL
    /// files through `init(file:)`.
    public init(_ name: String, _ sql: String) {
        self.name = name
        self.sql = sql
    }
}
