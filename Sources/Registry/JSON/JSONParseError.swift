/// Why a text is not acceptable JSON, and where: `offset` is the byte offset in the input and
/// `path` the location inside the document (`attributes.required[1]`, empty at the root), so
/// callers can name the offending field as the API's messages must.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public let offset: Int
    public let path: String

    public init(message: String, offset: Int, path: String) {
        self.message = message
        self.offset = offset
        self.path = path
    }

    public var description: String {
        path.isEmpty ? "\(message) at byte \(offset)" : "\(message) at \(path) (byte \(offset))"
    }
}

/// One step of a location inside a JSON document.
public enum JSONPathComponent: Sendable, Equatable {
    case key(String)
    case index(Int)

    /// Renders a JSON pointer (RFC 6901, `/properties/a~1b/items/0`) the way `render` writes a
    /// path. A token of digits reads as an index, which is what it is in every schema array.
    public static func render(pointer: String, prefix: String = "") -> String {
        guard !pointer.isEmpty else { return prefix }
        let tokens = pointer.unicodeScalars.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        let components: [JSONPathComponent] = tokens.map { scalars in
            let token = String(String.UnicodeScalarView(scalars)).unescapingPointerToken
            if let index = Int(token), index >= 0, token.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) { return .index(index) }
            return .key(token)
        }
        return render(components, prefix: prefix)
    }

    /// Renders components as `a.b[2].c`; keys that are not plain names are quoted (`["a.b"]`).
    public static func render(_ components: some Sequence<JSONPathComponent>, prefix: String = "") -> String {
        var out = prefix
        for component in components {
            switch component {
            case .index(let i):
                out += "[\(i)]"
            case .key(let k):
                if k.isPlainName {
                    out += out.isEmpty ? ClientText.shown(k) : ".\(ClientText.shown(k))"
                } else {
                    out += "[\(ClientText.quoted(k))]"
                }
            }
        }
        return out
    }
}

extension String {
    /// Letters, digits, `_`, `-` and `$`, not empty: safe to print after a dot in a path.
    fileprivate var isPlainName: Bool {
        !isEmpty && unicodeScalars.allSatisfy { s in
            (s.properties.isAlphabetic || s.properties.numericType != nil || s == "_" || s == "-" || s == "$")
        }
    }
}
