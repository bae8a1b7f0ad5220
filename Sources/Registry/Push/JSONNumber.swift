import Foundation

/// A JSON number compared by value, because schema bounds and enum members are compared with
/// values written differently (`1` and `1.0`, `0.3` against `multipleOf: 0.1`). `Decimal` keeps
/// 38 significant digits exactly, so money-like and int64 values compare exactly; lexemes out
/// of its range (`1e400`) fall back to `Double`.
struct JSONNumber: Comparable {
    let lexeme: String

    init(_ lexeme: String) { self.lexeme = lexeme }

    private var decimal: Decimal? { Decimal(string: lexeme, locale: nil) }
    var double: Double { Double(lexeme) ?? .nan }

    static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        if let l = lhs.decimal, let r = rhs.decimal { return l == r }
        return lhs.double == rhs.double
    }

    static func < (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        if let l = lhs.decimal, let r = rhs.decimal { return l < r }
        return lhs.double < rhs.double
    }

    /// Whether `self / divisor` is an integer; nil when `divisor` is not positive.
    func isMultiple(of divisor: JSONNumber) -> Bool? {
        if let value = decimal, let step = divisor.decimal {
            guard step > 0 else { return nil }
            var quotient = value / step
            var whole = Decimal()
            NSDecimalRound(&whole, &quotient, 0, .plain)
            return whole == quotient
        }
        guard divisor.double > 0 else { return nil }
        let quotient = double / divisor.double
        return quotient.isFinite && quotient.rounded() == quotient
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
