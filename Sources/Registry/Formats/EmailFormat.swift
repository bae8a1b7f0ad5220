/// RFC 5321 mailboxes (`email`), and RFC 6531's internationalised ones (`idn-email`), which
/// allow any non-ASCII scalar in the local part and an IDN domain.
enum EmailFormat {
    static func isEmail(_ scalars: [Unicode.Scalar], international: Bool) -> Bool {
        guard let at = scalars.lastIndex(of: "@"), at > 0 else { return false }
        let local = scalars[..<at], domain = scalars[(at + 1)...]
        guard String(String.UnicodeScalarView(local)).utf8.count <= 64 else { return false }
        return isLocalPart(local, international: international) && isDomain(domain, international: international)
    }

    /// A dot-string of atoms (no empty atom, so no leading, trailing or double dot) or a
    /// quoted string.
    private static func isLocalPart(_ local: ArraySlice<Unicode.Scalar>, international: Bool) -> Bool {
        if local.first == "\"" {
            guard local.count >= 2, local.last == "\"" else { return false }
            var escaped = false
            for scalar in local.dropFirst().dropLast() {
                if escaped {
                    guard (0x20...0x7E).contains(scalar.value) || (international && !scalar.isASCII) else { return false }
                    escaped = false
                } else if scalar == "\\" {
                    escaped = true
                } else {
                    let quotedText = scalar.value == 32 || scalar.value == 33 || (35...91).contains(scalar.value) || (93...126).contains(scalar.value)
                    guard quotedText || (international && !scalar.isASCII) else { return false }
                }
            }
            return !escaped
        }
        let atoms = local.split(separator: ".", omittingEmptySubsequences: false)
        return atoms.allSatisfy { atom in
            !atom.isEmpty && atom.allSatisfy { scalar in
                scalar.isASCIILetter || scalar.isASCIIDigit || "!#$%&'*+-/=?^_`{|}~".unicodeScalars.contains(scalar)
                    || (international && !scalar.isASCII)
            }
        }
    }

    /// A host name, `[IPv4]` or `[IPv6:…]`.
    private static func isDomain(_ domain: ArraySlice<Unicode.Scalar>, international: Bool) -> Bool {
        if domain.first == "[" {
            guard domain.last == "]", domain.count > 2 else { return false }
            let literal = domain.dropFirst().dropLast()
            let prefix = Array("IPv6:".unicodeScalars)
            if literal.starts(with: prefix) { return IPAddressFormat.isIPv6(literal.dropFirst(prefix.count)) }
            return IPAddressFormat.isIPv4(literal)
        }
        return HostnameFormat.isHostname(Array(domain), international: international)
    }
}
