/// The service's one JSON parser: strict RFC 8259 (no comments, no trailing commas, no
/// leading zeros, no lone surrogates, valid UTF-8 only, no byte-order mark), order-preserving,
/// and depth-limited so hostile input cannot exhaust the stack.
///
/// Depth counts containers: the root object or array is level 1, so `maxDepth` 64 accepts 64
/// nested containers and rejects 65.
public struct JSONParser {
    /// Options for one parse.
    public struct Options: Sendable {
        public var maxDepth: Int
        /// Schema texts must not repeat a key (the meaning would be ambiguous); RFC 8259 itself
        /// allows it, so it is an option.
        public var rejectDuplicateKeys: Bool

        public init(maxDepth: Int = 64, rejectDuplicateKeys: Bool = false) {
            self.maxDepth = maxDepth
            self.rejectDuplicateKeys = rejectDuplicateKeys
        }
    }

    /// Parses UTF-8 text.
    public static func parse(_ text: String, options: Options = Options()) throws(JSONParseError) -> JSONValue {
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(JSONParseError) in try parse(buffer, options: options) }
        }
        return try result.get()
    }

    /// Parses UTF-8 bytes.
    public static func parse(_ bytes: [UInt8], options: Options = Options()) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in try parse(buffer, options: options) }
    }

    /// Parses UTF-8 bytes in place, without copying them.
    public static func parse(_ buffer: UnsafeBufferPointer<UInt8>, options: Options = Options()) throws(JSONParseError)
        -> JSONValue
    {
        var parser = JSONParser(bytes: buffer, options: options)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.index != buffer.count {
            throw parser.error("unexpected data after the JSON value")
        }
        return value
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let options: Options
    private var index = 0
    /// The keys and indexes leading to the value being parsed; only read when an error is raised.
    private var path: [JSONPathComponent] = []

    private init(bytes: UnsafeBufferPointer<UInt8>, options: Options) {
        self.bytes = bytes
        self.options = options
    }

    private func error(_ message: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(message: message, offset: offset ?? index, path: JSONPathComponent.render(path))
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw error("invalid literal") }
        let start = literal.utf8Start
        for i in 0..<count where bytes[index + i] != start[i] {
            throw error("invalid literal")
        }
        index += count
    }

    private mutating func enter(depth: Int) throws(JSONParseError) {
        if depth > options.maxDepth {
            throw error("nested deeper than \(options.maxDepth) levels")
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        try enter(depth: depth)
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        var seenKeys: Set<ExactName> = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(JSONObject(members))
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a string key")
            }
            let keyOffset = index
            let key = try parseString()
            path.append(.key(key))
            if options.rejectDuplicateKeys, isDuplicate(key, in: members, seen: &seenKeys) {
                throw error("duplicate key \(ClientText.quoted(key))", at: keyOffset)
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            path.removeLast()
            members.append((key, value))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input in object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(JSONObject(members))
            } else {
                throw error("expected ',' or '}'")
            }
        }
    }

    /// Keys are the same when their Unicode scalars are (RFC 8259 §8.3): `"é"` and `"e\u0301"`
    /// are two keys. Small objects are scanned; past a handful of keys a set keeps wide objects
    /// linear.
    private func isDuplicate(_ key: String, in members: [(key: String, value: JSONValue)], seen: inout Set<ExactName>) -> Bool {
        let scanLimit = 8
        if members.count < scanLimit { return members.contains(where: { $0.key.hasSameBytes(as: key) }) }
        if seen.isEmpty { seen = Set(members.map { ExactName($0.key) }) }
        return !seen.insert(ExactName(key)).inserted
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        try enter(depth: depth)
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            path.append(.index(elements.count))
            elements.append(try parseValue(depth: depth))
            path.removeLast()
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input in array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            } else {
                throw error("expected ',' or ']'")
            }
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> String {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw error("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if isDigit(bytes[index]) {
            skipDigits()
        } else {
            throw error("invalid number")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: digit expected after '.'") }
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: exponent digits expected") }
            skipDigits()
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    /// Strings without escapes (nearly all of them) are validated and copied in one step;
    /// escapes switch to building the bytes one piece at a time.
    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                return try makeString(slice, offset: start)
            }
            if byte == UInt8(ascii: "\\") {
                var decoded = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
                return try parseEscapedString(into: &decoded, start: start)
            }
            if byte < 0x20 { throw error("control character in string") }
            index += 1
        }
        throw error("unterminated string")
    }

    private func makeString(_ slice: UnsafeBufferPointer<UInt8>, offset: Int) throws(JSONParseError) -> String {
        var ascii = true
        for byte in slice where byte >= 0x80 {
            ascii = false
            break
        }
        if ascii { return String(decoding: slice, as: UTF8.self) }
        guard let string = String(validating: slice, as: UTF8.self) else {
            throw error("invalid UTF-8 in string", at: offset)
        }
        return string
    }

    private mutating func parseEscapedString(into decoded: inout [UInt8], start: Int) throws(JSONParseError) -> String {
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return try decoded.withUnsafeBufferPointer { buffer throws(JSONParseError) in
                    try makeString(buffer, offset: start)
                }
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unterminated escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): decoded.append(0x22)
                case UInt8(ascii: "\\"): decoded.append(0x5C)
                case UInt8(ascii: "/"): decoded.append(0x2F)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"): try appendUnicodeEscape(into: &decoded)
                default: throw error("invalid escape", at: index - 2)
                }
            default:
                if byte < 0x20 { throw error("control character in string") }
                decoded.append(byte)
                index += 1
            }
        }
        throw error("unterminated string")
    }

    private mutating func appendUnicodeEscape(into decoded: inout [UInt8]) throws(JSONParseError) {
        let first = try readHex4()
        var scalarValue = UInt32(first)
        if (0xD800...0xDBFF).contains(first) {
            guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw error("lone surrogate in \\u escape")
            }
            index += 2
            let second = try readHex4()
            guard (0xDC00...0xDFFF).contains(second) else { throw error("invalid surrogate pair in \\u escape") }
            scalarValue = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(first) {
            throw error("lone surrogate in \\u escape")
        }
        guard let scalar = Unicode.Scalar(scalarValue) else { throw error("invalid \\u escape") }
        decoded.append(contentsOf: UTF8.encode(scalar)!)
    }

    private mutating func readHex4() throws(JSONParseError) -> UInt16 {
        guard bytes.count - index >= 4 else { throw error("incomplete \\u escape") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }
}
