/// IDNA 2008's rules for U-labels, approximated from `Unicode.Scalar.Properties` because the
/// standard library has no IDNA, script or Bidi_Class tables:
/// - PVALID: lowercase ASCII letters, digits and `-`, and scalars of General_Category Ll, Lo,
///   Lm, Mn, Mc or Nd that NFKC_Casefold leaves unchanged (RFC 5892's LetterDigits minus
///   Unstable), minus historic Hangul jamo and the two ignorable blocks, plus RFC 5892 2.6's
///   exceptions;
/// - CONTEXTJ (ZWJ, ZWNJ) and CONTEXTO (middle dot, keraia, geresh, gershayim, katakana middle
///   dot, Arabic-Indic digits) with the rules of RFC 5892 appendix A, scripts and joining types
///   read from their blocks;
/// - RFC 5893's Bidi rule, bidirectional classes read from blocks.
enum IDNARules {
    static func isULabel(_ label: [UInt32]) -> Bool {
        guard let first = label.first, let last = label.last, first != 0x2D, last != 0x2D else { return false }
        if label.count >= 4, label[2] == 0x2D, label[3] == 0x2D { return false }
        if let scalar = Unicode.Scalar(first), [.nonspacingMark, .spacingMark, .enclosingMark].contains(scalar.properties.generalCategory) {
            return false
        }
        for (index, codePoint) in label.enumerated() {
            guard let scalar = Unicode.Scalar(codePoint) else { return false }
            switch status(scalar) {
            case .disallowed: return false
            case .pvalid: continue
            case .contextual: guard contextHolds(at: index, in: label) else { return false }
            }
        }
        return true
    }

    private enum Status { case pvalid, contextual, disallowed }

    private static let pvalidExceptions: Set<UInt32> = [0xDF, 0x3C2, 0x6FD, 0x6FE, 0xF0B, 0x3007]
    private static let disallowedExceptions: Set<UInt32> = [0x640, 0x7FA, 0x302E, 0x302F, 0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x303B]
    private static let contextual: Set<UInt32> = [0x200C, 0x200D, 0xB7, 0x375, 0x5F3, 0x5F4, 0x30FB]

    private static func status(_ scalar: Unicode.Scalar) -> Status {
        let value = scalar.value
        if pvalidExceptions.contains(value) { return .pvalid }
        if disallowedExceptions.contains(value) { return .disallowed }
        if contextual.contains(value) || (0x660...0x669).contains(value) || (0x6F0...0x6F9).contains(value) { return .contextual }
        if scalar.isASCII {
            return ("a"..."z").contains(scalar) || scalar.isASCIIDigit || scalar == "-" ? .pvalid : .disallowed
        }
        let historicOrIgnorable: [ClosedRange<UInt32>] = [0x1100...0x11FF, 0xA960...0xA97F, 0xD7B0...0xD7FF, 0x20D0...0x20FF, 0x1D100...0x1D24F]
        if historicOrIgnorable.contains(where: { $0.contains(value) }) { return .disallowed }
        let properties = scalar.properties
        guard !properties.changesWhenNFKCCaseFolded, !properties.isDefaultIgnorableCodePoint, !properties.isNoncharacterCodePoint else { return .disallowed }
        switch properties.generalCategory {
        case .lowercaseLetter, .otherLetter, .modifierLetter, .nonspacingMark, .spacingMark, .decimalNumber: return .pvalid
        default: return .disallowed
        }
    }

    private static func contextHolds(at index: Int, in label: [UInt32]) -> Bool {
        let codePoint = label[index]
        let before = index > 0 ? label[index - 1] : nil
        let after = index + 1 < label.count ? label[index + 1] : nil
        switch codePoint {
        case 0x200D:
            return before.map(isVirama) ?? false
        case 0x200C:
            if before.map(isVirama) ?? false { return true }
            // (Joining_Type L or D) T* ZWNJ T* (Joining_Type R or D)
            var left = index - 1
            while left >= 0, isTransparent(label[left]) { left -= 1 }
            var right = index + 1
            while right < label.count, isTransparent(label[right]) { right += 1 }
            return left >= 0 && right < label.count && isDualJoining(label[left]) && isDualJoining(label[right])
        case 0xB7:
            return before == 0x6C && after == 0x6C
        case 0x375:
            return after.map(isGreek) ?? false
        case 0x5F3, 0x5F4:
            return before.map(isHebrew) ?? false
        case 0x30FB:
            return label.contains { $0 != 0x30FB && isJapaneseOrHan($0) }
        case 0x660...0x669:
            return !label.contains { (0x6F0...0x6F9).contains($0) }
        case 0x6F0...0x6F9:
            return !label.contains { (0x660...0x669).contains($0) }
        default:
            return false
        }
    }

    private static func isVirama(_ codePoint: UInt32) -> Bool {
        Unicode.Scalar(codePoint)?.properties.canonicalCombiningClass == .virama
    }

    private static func isTransparent(_ codePoint: UInt32) -> Bool {
        guard let scalar = Unicode.Scalar(codePoint) else { return false }
        return [.nonspacingMark, .enclosingMark, .format].contains(scalar.properties.generalCategory) && codePoint != 0x200C
    }

    /// Arabic, Syriac and NKo letters, most of which join on both sides.
    private static func isDualJoining(_ codePoint: UInt32) -> Bool {
        guard let scalar = Unicode.Scalar(codePoint), scalar.properties.generalCategory == .otherLetter else { return false }
        return (0x620...0x6FF).contains(codePoint) || (0x710...0x74F).contains(codePoint) || (0x750...0x77F).contains(codePoint)
            || (0x7CA...0x7EA).contains(codePoint) || (0x8A0...0x8FF).contains(codePoint)
    }

    private static func isGreek(_ codePoint: UInt32) -> Bool {
        ((0x370...0x3FF).contains(codePoint) && codePoint != 0x375 && codePoint != 0x37E) || (0x1F00...0x1FFF).contains(codePoint)
    }

    private static func isHebrew(_ codePoint: UInt32) -> Bool { (0x591...0x5F4).contains(codePoint) }

    private static func isJapaneseOrHan(_ codePoint: UInt32) -> Bool {
        let ranges: [ClosedRange<UInt32>] = [
            0x3040...0x309F, 0x30A0...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xF900...0xFAFF, 0x20000...0x3FFFF, 0x3005...0x3007,
        ]
        return ranges.contains { $0.contains(codePoint) }
    }

    // MARK: Bidi rule (RFC 5893)

    private enum BidiClass { case l, r, al, an, en, es, cs, et, on, bn, nsm }

    private static func bidiClass(_ codePoint: UInt32) -> BidiClass {
        guard let scalar = Unicode.Scalar(codePoint) else { return .on }
        let category = scalar.properties.generalCategory
        if category == .nonspacingMark || category == .enclosingMark { return .nsm }
        switch codePoint {
        case 0x30...0x39, 0x6F0...0x6F9, 0xB2, 0xB3, 0xB9: return .en
        case 0x660...0x669, 0x66B, 0x66C: return .an
        case 0x2B, 0x2D: return .es
        case 0x2C, 0x2E, 0x3A, 0x2F, 0xA0: return .cs
        case 0x23...0x25, 0xA2...0xA5, 0xB0, 0xB1: return .et
        case 0x590...0x5FF, 0x7C0...0x7FF, 0x800...0x85F, 0xFB1D...0xFB4F, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return .r
        case 0x600...0x6FF, 0x700...0x74F, 0x750...0x77F, 0x780...0x7BF, 0x860...0x8FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF: return .al
        default: break
        }
        if category == .format || category == .control { return .bn }
        if scalar.properties.isAlphabetic || category == .decimalNumber || category == .spacingMark { return .l }
        return .on
    }

    /// When any label holds a right-to-left character, every label must satisfy the Bidi rule.
    static func satisfiesBidi(_ labels: [[UInt32]]) -> Bool {
        let classes = labels.map { $0.map(bidiClass) }
        guard classes.contains(where: { $0.contains { $0 == .r || $0 == .al || $0 == .an } }) else { return true }
        for label in classes {
            guard let first = label.first else { return false }
            let end = label.last(where: { $0 != .nsm })
            switch first {
            case .r, .al:
                let allowed: Set<BidiClass> = [.r, .al, .an, .en, .es, .cs, .et, .on, .bn, .nsm]
                guard label.allSatisfy(allowed.contains), let end, [.r, .al, .en, .an].contains(end),
                      !(label.contains(.en) && label.contains(.an)) else { return false }
            case .l:
                let allowed: Set<BidiClass> = [.l, .en, .es, .cs, .et, .on, .bn, .nsm]
                guard label.allSatisfy(allowed.contains), let end, [.l, .en].contains(end) else { return false }
            default:
                return false
            }
        }
        return true
    }
}
