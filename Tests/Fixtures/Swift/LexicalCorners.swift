import ActivityKit

/// Every comment and string literal form that could hide a brace, a quote or a declaration
/// from a careless reader. Only `gate` and the properties after it are coded.
struct LexicalCornersAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var a: String { "}" }
        var b: String { "\"}" }
        var c: String { #"}"\"# }
        var d: String {
            """
            } " "" var hidden: Int
            """
        }
        var e: String {
            ##"""
            """# } var hidden: Int
            """##
        }
        var f: String { "Gate \(gate.isEmpty ? "}" : "(\(gate))") now" }
        // var g: Int
        /* var h: Int /* nested */ var i: Int */
        var gate: String // var j: Int
        var text: String = """
            Line one
              indented \
            joined
            """
        var pattern: String = #"\d+\#t"#
        var escapes: String = "tab\tquote\"smile\u{1F600}"
        var interpolated: String = "v\(1)"
        var `default`: String
    }
}
