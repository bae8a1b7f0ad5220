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
struct BigExponent: Hashable, Comparable, Sendable {
    let negative: Bool
    let magnitude: DecimalDigits

    init(negative: Bool, magnitude: DecimalDigits) {
        self.negative = negative && !magnitude.isZero
        self.magnitude = magnitude
    }

    init(_ value: Int) {
        self.init(negative: value < 0, magnitude: DecimalDigits(abs(value)))
    }

    static func + (lhs: BigExponent, rhs: BigExponent) -> BigExponent {
        if lhs.negative == rhs.negative { return BigExponent(negative: lhs.negative, magnitude: lhs.magnitude + rhs.magnitude) }
        let order = DecimalDigits.compare(lhs.magnitude, rhs.magnitude)
        if order == 0 { return BigExponent(0) }
        return order > 0
            ? BigExponent(negative: lhs.negative, magnitude: lhs.magnitude - rhs.magnitude)
            : BigExponent(negative: rhs.negative, magnitude: rhs.magnitude - lhs.magnitude)
    }

    /// The value as an `Int` when it has at most 18 digits.
    var smallValue: Int? {
        guard magnitude.count <= 18 else { return nil }
        let value = magnitude.digits.reduce(0) { $0 * 10 + Int($1) }
        return negative ? -value : value
    }

    static prefix func - (value: BigExponent) -> BigExponent {
        BigExponent(negative: !value.negative, magnitude: value.magnitude)
    }

    static func < (lhs: BigExponent, rhs: BigExponent) -> Bool {
        if lhs.negative != rhs.negative { return lhs.negative }
        let order = DecimalDigits.compare(lhs.magnitude, rhs.magnitude)
        return lhs.negative ? order > 0 : order < 0
    }
}
