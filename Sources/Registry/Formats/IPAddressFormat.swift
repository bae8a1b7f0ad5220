/// IPv4 dotted quads (RFC 2673: no leading zeros, no shorthand) and IPv6 text (RFC 4291 2.2).
enum IPAddressFormat {
    static func isIPv4(_ scalars: ArraySlice<Unicode.Scalar>) -> Bool {
        let parts = scalars.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            guard (1...3).contains(part.count), let value = asciiNumber(part), value <= 255 else { return false }
            return part.first != "0" || part.count == 1
        }
    }

    /// Eight groups of 1–4 hex digits; `::` once stands for one or more zero groups; the last
    /// two groups may be written as an IPv4 address. No zone, no prefix length, no brackets.
    static func isIPv6(_ scalars: ArraySlice<Unicode.Scalar>) -> Bool {
        let s = Array(scalars)
        var halves: [ArraySlice<Unicode.Scalar>] = []
        var index = 0, start = 0
        while index + 1 < s.count {
            if s[index] == ":", s[index + 1] == ":" {
                halves.append(s[start..<index])
                start = index + 2
                index += 2
            } else {
                index += 1
            }
        }
        halves.append(s[start..<s.count])
        guard halves.count <= 2 else { return false }
        var groups = 0
        for (position, half) in halves.enumerated() where !half.isEmpty {
            let parts = half.split(separator: ":", omittingEmptySubsequences: false)
            for (offset, part) in parts.enumerated() {
                let isLast = position == halves.count - 1 && offset == parts.count - 1
                if isLast, part.contains(".") {
                    guard isIPv4(part) else { return false }
                    groups += 2
                } else {
                    guard (1...4).contains(part.count), part.allSatisfy(\.isASCIIHexDigit) else { return false }
                    groups += 1
                }
            }
        }
        return halves.count == 2 ? groups <= 7 : groups == 8
    }
}
