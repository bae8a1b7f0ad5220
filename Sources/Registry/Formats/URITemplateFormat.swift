/// RFC 6570 URI templates: literals and `{operator varspec,…}` expressions.
enum URITemplateFormat {
    static func isURITemplate(_ scalars: [Unicode.Scalar]) -> Bool {
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "{" {
                guard let close = scalars[index...].firstIndex(of: "}"), isExpression(scalars[(index + 1)..<close]) else { return false }
                index = close + 1
            } else if scalar == "%" {
                guard index + 2 < scalars.count, scalars[index + 1].isASCIIHexDigit, scalars[index + 2].isASCIIHexDigit else { return false }
                index += 3
            } else {
                // Literals: anything but controls, space, `"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}`.
                // (The suite, and real templates, allow the apostrophe RFC 6570 leaves out.)
                guard scalar.value > 0x20, scalar.value != 0x7F, !"\"<>\\^`{|}".unicodeScalars.contains(scalar),
                      !(0x80...0x9F).contains(scalar.value) else { return false }
                index += 1
            }
        }
        return true
    }

    /// `[operator] varspec *( "," varspec )`, varspec = varname [ ":" 1–9999 / "*" ].
    private static func isExpression(_ expression: ArraySlice<Unicode.Scalar>) -> Bool {
        var body = expression
        if let first = body.first, "+#./;?&".unicodeScalars.contains(first) { body = body.dropFirst() }
        guard !body.isEmpty else { return false }
        return body.split(separator: ",", omittingEmptySubsequences: false).allSatisfy(isVariableSpec)
    }

    private static func isVariableSpec(_ spec: ArraySlice<Unicode.Scalar>) -> Bool {
        var name = spec
        if spec.last == "*" {
            name = spec.dropLast()
        } else if let colon = spec.firstIndex(of: ":") {
            let length = spec[(colon + 1)...]
            guard (1...4).contains(length.count), length.first != "0", length.allSatisfy(\.isASCIIDigit) else { return false }
            name = spec[..<colon]
        }
        guard !name.isEmpty, name.first != ".", name.last != "." else { return false }
        var index = name.startIndex, previousDot = false
        while index < name.endIndex {
            let scalar = name[index]
            if scalar == "%" {
                guard index + 2 < name.endIndex, name[index + 1].isASCIIHexDigit, name[index + 2].isASCIIHexDigit else { return false }
                index += 3
                previousDot = false
                continue
            }
            if scalar == "." {
                guard !previousDot else { return false }
                previousDot = true
            } else {
                guard scalar.isASCIILetter || scalar.isASCIIDigit || scalar == "_" else { return false }
                previousDot = false
            }
            index += 1
        }
        return true
    }
}
