/// Host names: RFC 1123 labels (`hostname`), and IDNA 2008 names (`idn-hostname`, RFC 5890–5893),
/// where labels may be U-labels and `。．｡` separate labels too. An `xn--` label must be valid
/// Punycode that re-encodes to itself and decodes to a valid U-label, in both formats.
enum HostnameFormat {
    static func isHostname(_ scalars: [Unicode.Scalar], international: Bool) -> Bool {
        let separators: [Unicode.Scalar] = international ? [".", "\u{3002}", "\u{FF0E}", "\u{FF61}"] : ["."]
        let labels = scalars.split(omittingEmptySubsequences: false, whereSeparator: { separators.contains($0) })
        var uLabels: [[UInt32]] = []
        var length = labels.count - 1
        for label in labels {
            guard let aLabelLength = checkLabel(Array(label), international: international, uLabels: &uLabels) else { return false }
            length += aLabelLength
        }
        guard length <= 253 else { return false }
        return IDNARules.satisfiesBidi(uLabels)
    }

    /// The label's length as an A-label, or nil when it is not a valid label.
    private static func checkLabel(_ label: [Unicode.Scalar], international: Bool, uLabels: inout [[UInt32]]) -> Int? {
        guard !label.isEmpty else { return nil }
        if label.allSatisfy(\.isASCII) {
            guard label.count <= 63, label.first != "-", label.last != "-",
                  label.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || $0 == "-" }) else { return nil }
            let lowercased = label.map { $0.isASCIILetter ? Unicode.Scalar(UInt8($0.value | 0x20)) : $0 }
            guard lowercased.count >= 4, lowercased[2] == "-", lowercased[3] == "-" else {
                uLabels.append(label.map(\.value))
                return label.count
            }
            guard lowercased.starts(with: Array("xn--".unicodeScalars)),
                  let decoded = Punycode.decode(Array(lowercased.dropFirst(4))),
                  !decoded.allSatisfy({ $0 < 0x80 }),
                  Punycode.encode(decoded) == Array(lowercased.dropFirst(4)),
                  IDNARules.isULabel(decoded) else { return nil }
            uLabels.append(decoded)
            return label.count
        }
        guard international else { return nil }
        let codePoints = label.map(\.value)
        guard IDNARules.isULabel(codePoints) else { return nil }
        let aLabelLength = 4 + Punycode.encode(codePoints).count
        guard aLabelLength <= 63 else { return nil }
        uLabels.append(codePoints)
        return aLabelLength
    }
}
