/// Unsigned integers of any size as decimal digits, most significant first, no leading zeros
/// (zero is empty). Only what exact JSON number arithmetic needs: every operation is linear in
/// the digits, or a product of two lengths for `isDivisible`.
struct DecimalDigits: Hashable, Sendable {
    private(set) var digits: [UInt8]

    init<S: Sequence>(_ digits: S) where S.Element == UInt8 {
        self.digits = Array(digits.drop { $0 == 0 })
    }

    init(_ value: Int) {
        precondition(value >= 0)
        digits = value == 0 ? [] : Array(String(value).utf8.map { $0 - 0x30 })
    }

    var isZero: Bool { digits.isEmpty }
    var count: Int { digits.count }

    static func compare(_ lhs: DecimalDigits, _ rhs: DecimalDigits) -> Int {
        if lhs.count != rhs.count { return lhs.count < rhs.count ? -1 : 1 }
        for (l, r) in zip(lhs.digits, rhs.digits) where l != r { return l < r ? -1 : 1 }
        return 0
    }

    static func + (lhs: DecimalDigits, rhs: DecimalDigits) -> DecimalDigits {
        var result: [UInt8] = []
        var carry: UInt8 = 0
        var l = lhs.digits.reversed().makeIterator(), r = rhs.digits.reversed().makeIterator()
        while true {
            let a = l.next(), b = r.next()
            if a == nil, b == nil { break }
            let sum = (a ?? 0) + (b ?? 0) + carry
            result.append(sum % 10)
            carry = sum / 10
        }
        if carry > 0 { result.append(carry) }
        return DecimalDigits(result.reversed())
    }

    /// `lhs − rhs`, for `lhs ≥ rhs`.
    static func - (lhs: DecimalDigits, rhs: DecimalDigits) -> DecimalDigits {
        var result: [UInt8] = []
        var borrow: Int = 0
        var r = rhs.digits.reversed().makeIterator()
        for digit in lhs.digits.reversed() {
            var difference = Int(digit) - Int(r.next() ?? 0) - borrow
            borrow = difference < 0 ? 1 : 0
            if difference < 0 { difference += 10 }
            result.append(UInt8(difference))
        }
        return DecimalDigits(result.reversed())
    }

    /// `(self / divisor, self % divisor)` for a small divisor.
    func divided(by divisor: Int) -> (quotient: DecimalDigits, remainder: Int) {
        var quotient: [UInt8] = []
        quotient.reserveCapacity(count)
        var remainder = 0
        for digit in digits {
            remainder = remainder * 10 + Int(digit)
            quotient.append(UInt8(remainder / divisor))
            remainder %= divisor
        }
        return (DecimalDigits(quotient), remainder)
    }

    /// How many times `prime` divides `self` (nonzero), and what is left.
    func removingFactors(of prime: Int) -> (count: Int, rest: DecimalDigits) {
        var rest = self, count = 0
        while true {
            let (quotient, remainder) = rest.divided(by: prime)
            guard remainder == 0 else { return (count, rest) }
            rest = quotient
            count += 1
        }
    }

    /// Whether `divisor` (nonzero) divides `self`: long division digit by digit, the remainder
    /// kept below the divisor by at most nine subtractions per digit.
    func isDivisible(by divisor: DecimalDigits) -> Bool {
        var remainder = DecimalDigits([])
        for digit in digits {
            remainder = DecimalDigits(remainder.digits + [digit])
            while Self.compare(remainder, divisor) >= 0 { remainder = remainder - divisor }
        }
        return remainder.isZero
    }
}

/// A signed integer of any size, for exponents: `1e1000000000000000000000` is a JSON number.
/// Exponents that fit in ±10^17 (all but adversarial ones) stay an `Int`, so comparing
/// ordinary numbers allocates nothing for them.
struct BigExponent: Hashable, Comparable, Sendable {
    private enum Storage: Hashable {
        case small(Int)
        case big(negative: Bool, magnitude: DecimalDigits)
    }

    private static let smallLimit = 100_000_000_000_000_000
    private let storage: Storage

    init(_ value: Int) {
        precondition(abs(value) < Self.smallLimit * 10)
        storage = abs(value) < Self.smallLimit
            ? .small(value) : .big(negative: value < 0, magnitude: DecimalDigits(abs(value)))
    }

    init(negative: Bool, magnitude: DecimalDigits) {
        if magnitude.count <= 17 {
            let value = magnitude.digits.reduce(0) { $0 * 10 + Int($1) }
            storage = .small(negative ? -value : value)
        } else {
            storage = .big(negative: negative, magnitude: magnitude)
        }
    }

    var negative: Bool {
        switch storage {
        case .small(let value): value < 0
        case .big(let negative, _): negative
        }
    }

    private var parts: (negative: Bool, magnitude: DecimalDigits) {
        switch storage {
        case .small(let value): (value < 0, DecimalDigits(abs(value)))
        case .big(let negative, let magnitude): (negative, magnitude)
        }
    }

    /// The value as an `Int` when it is below 10^17 in magnitude.
    var smallValue: Int? { if case .small(let value) = storage { value } else { nil } }

    static func + (lhs: BigExponent, rhs: BigExponent) -> BigExponent {
        if case .small(let l) = lhs.storage, case .small(let r) = rhs.storage { return BigExponent(l + r) }
        let (l, r) = (lhs.parts, rhs.parts)
        if l.negative == r.negative { return BigExponent(negative: l.negative, magnitude: l.magnitude + r.magnitude) }
        let order = DecimalDigits.compare(l.magnitude, r.magnitude)
        if order == 0 { return BigExponent(0) }
        return order > 0
            ? BigExponent(negative: l.negative, magnitude: l.magnitude - r.magnitude)
            : BigExponent(negative: r.negative, magnitude: r.magnitude - l.magnitude)
    }

    static prefix func - (value: BigExponent) -> BigExponent {
        switch value.storage {
        case .small(let small): BigExponent(-small)
        case .big(let negative, let magnitude): BigExponent(negative: !negative, magnitude: magnitude)
        }
    }

    static func < (lhs: BigExponent, rhs: BigExponent) -> Bool {
        if case .small(let l) = lhs.storage, case .small(let r) = rhs.storage { return l < r }
        let (l, r) = (lhs.parts, rhs.parts)
        if l.negative != r.negative { return l.negative }
        let order = DecimalDigits.compare(l.magnitude, r.magnitude)
        return l.negative ? order > 0 : order < 0
    }
}
