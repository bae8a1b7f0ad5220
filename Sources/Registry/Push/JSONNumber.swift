/// A JSON number compared by value, exactly, whatever its lexeme: schema bounds and enum members
/// are compared with values written differently (`1` and `1.0`, `0.3` against `multipleOf: 0.1`,
/// `1e400`, `18446744073709551616`), and a `Double` or `Decimal` silently rounds or overflows.
///
/// The lexeme is normalised once to sign × coefficient × 10^exponent, the coefficient's digits
/// without leading or trailing zeros and the exponent of any size, so comparing never expands
/// a power of ten: `1e1000000000` costs what its eleven characters do.
struct JSONNumber: Comparable, Hashable {
    let lexeme: String
    /// nil for a lexeme that is not a JSON number; such a number equals and orders nothing.
    private let value: ExactValue?

    private struct ExactValue: Hashable {
        /// False for zero: `-0` is `0`.
        let negative: Bool
        let coefficient: DecimalDigits
        let exponent: BigExponent

        var isZero: Bool { coefficient.isZero }
        /// The power of ten just above the magnitude: 10^(order − 1) ≤ |value| < 10^order.
        var order: BigExponent { exponent + BigExponent(coefficient.count) }
    }

    init(_ lexeme: String) {
        self.lexeme = lexeme
        value = Self.parse(lexeme)
    }

    var double: Double { Double(lexeme) ?? .nan }

    /// Whether the magnitude is beyond the largest finite `Double`, so a Swift `Double` (or
    /// `Date`, `TimeInterval`) field cannot decode it: `Double(lexeme)` is infinite.
    var overflowsDouble: Bool { double.isInfinite }

    /// Whether the number denotes an integer (`3`, `3.0`, `1e2`, `1e400`), as JSON Schema counts it.
    var isInteger: Bool {
        guard let value else { return false }
        return value.isZero || !value.exponent.negative
    }

    /// The exact `Int64` this number denotes, or nil when it is not an integer or out of
    /// `Int64`'s range: a Swift `Int` field decodes exactly these.
    var int64Value: Int64? {
        guard let magnitude = integerMagnitude, magnitude.count <= 19 else { return nil }
        let digits = magnitude.isZero ? "0" : String(decoding: magnitude.digits.map { $0 + 0x30 }, as: UTF8.self)
        return Int64((value?.negative == true ? "-" : "") + digits)
    }

    /// The exact `UInt64` this number denotes, or nil when it is not an integer or out of
    /// `UInt64`'s range.
    var uint64Value: UInt64? {
        guard let magnitude = integerMagnitude, magnitude.count <= 20 else { return nil }
        if magnitude.isZero { return 0 }
        guard value?.negative == false else { return nil }
        return UInt64(String(decoding: magnitude.digits.map { $0 + 0x30 }, as: UTF8.self))
    }

    /// The integer's digits when the number is an integer of at most 20 digits.
    private var integerMagnitude: DecimalDigits? {
        guard let value, isInteger else { return nil }
        if value.isZero { return DecimalDigits([]) }
        guard value.order < BigExponent(21), let zeros = value.exponent.smallValue else { return nil }
        return DecimalDigits(value.coefficient.digits + Array(repeating: 0, count: zeros))
    }

    static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        guard let l = lhs.value, let r = rhs.value else { return false }
        return l == r
    }

    func hash(into hasher: inout Hasher) { hasher.combine(value) }

    static func < (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        guard let l = lhs.value, let r = rhs.value else { return false }
        if l.isZero { return !r.isZero && !r.negative }
        if r.isZero { return l.negative }
        if l.negative != r.negative { return l.negative }
        let magnitudeOrder = compareMagnitudes(l, r)
        return l.negative ? magnitudeOrder > 0 : magnitudeOrder < 0
    }

    private static func compareMagnitudes(_ l: ExactValue, _ r: ExactValue) -> Int {
        let (lOrder, rOrder) = (l.order, r.order)
        if lOrder != rOrder { return lOrder < rOrder ? -1 : 1 }
        // Same order of magnitude: the digits decide, read as 0.d1d2…; with no trailing zeros,
        // when one is a prefix of the other the longer is larger.
        for (a, b) in zip(l.coefficient.digits, r.coefficient.digits) where a != b { return a < b ? -1 : 1 }
        return l.coefficient.count == r.coefficient.count ? 0 : (l.coefficient.count < r.coefficient.count ? -1 : 1)
    }

    /// Coefficient digits beyond which `isMultiple(of:)` declines (nil) rather than divide:
    /// its long division costs the product of the two lengths.
    static let maximumDivisionDigits = 1_000

    /// Whether `self / divisor` is an integer; nil when `divisor` is not positive (or either
    /// coefficient has more than `maximumDivisionDigits` digits).
    ///
    /// With self = a × 10^p and divisor = b × 10^q, b = 2^i × 5^j × c (c coprime to 10):
    /// self / divisor is an integer exactly when c divides a, i ≤ v2(a) + (p − q) and
    /// j ≤ v5(a) + (p − q). No power of ten is ever built, so `1e308` against `0.5` and
    /// `1e-400` against `1e-401` cost what their digits do.
    func isMultiple(of divisor: JSONNumber) -> Bool? {
        guard let a = value, let b = divisor.value, !b.isZero, !b.negative else { return nil }
        guard a.coefficient.count <= Self.maximumDivisionDigits, b.coefficient.count <= Self.maximumDivisionDigits else { return nil }
        if a.isZero { return true }
        let (twosOfB, afterTwos) = b.coefficient.removingFactors(of: 2)
        let (fivesOfB, rest) = afterTwos.removingFactors(of: 5)
        guard a.coefficient.isDivisible(by: rest) else { return false }
        let shift = a.exponent + -b.exponent
        let twosOfA = a.coefficient.removingFactors(of: 2).count
        let fivesOfA = a.coefficient.removingFactors(of: 5).count
        return !(shift + BigExponent(twosOfA) < BigExponent(twosOfB))
            && !(shift + BigExponent(fivesOfA) < BigExponent(fivesOfB))
    }

    /// Normalises a lexeme of the JSON grammar, `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`;
    /// nil for anything else.
    private static func parse(_ lexeme: String) -> ExactValue? {
        let bytes = Array(lexeme.utf8)
        var index = 0
        let negative = bytes.first == 0x2D
        if negative { index += 1 }
        func digits() -> ArraySlice<UInt8> {
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            return bytes[start..<index]
        }
        let whole = digits()
        guard !whole.isEmpty, whole.first != 0x30 || whole.count == 1 else { return nil }
        var fraction: ArraySlice<UInt8> = []
        if index < bytes.count, bytes[index] == 0x2E {
            index += 1
            fraction = digits()
            guard !fraction.isEmpty else { return nil }
        }
        var exponent = BigExponent(0)
        if index < bytes.count, bytes[index] | 0x20 == 0x65 {
            index += 1
            var exponentNegative = false
            if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D {
                exponentNegative = bytes[index] == 0x2D
                index += 1
            }
            let written = digits()
            guard !written.isEmpty else { return nil }
            exponent = BigExponent(negative: exponentNegative, magnitude: DecimalDigits(written.map { $0 - 0x30 }))
        }
        guard index == bytes.count else { return nil }
        var all = (whole + fraction).map { $0 - 0x30 }
        var trailingZeros = 0
        while all.last == 0 { all.removeLast(); trailingZeros += 1 }
        let coefficient = DecimalDigits(all)
        if coefficient.isZero { return ExactValue(negative: false, coefficient: coefficient, exponent: BigExponent(0)) }
        return ExactValue(negative: negative, coefficient: coefficient, exponent: exponent + BigExponent(trailingZeros - fraction.count))
    }
}

extension JSONValue {
    /// Equality as JSON Schema's `enum` and `const` mean it: numbers by value, object members in
    /// any order. `==` compares lexemes and member order, which is right for round trips only.
    func isSameJSON(as other: JSONValue) -> Bool {
        switch (self, other) {
        case (.number(let l), .number(let r)):
            return JSONNumber(l) == JSONNumber(r)
        case (.array(let l), .array(let r)):
            return l.count == r.count && zip(l, r).allSatisfy { $0.isSameJSON(as: $1) }
        case (.object(let l), .object(let r)):
            return l.count == r.count
                && l.members.allSatisfy { member in r[member.key].map { member.value.isSameJSON(as: $0) } ?? false }
        default:
            return self == other
        }
    }
}
