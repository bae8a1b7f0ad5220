/// A set of code points as ECMA-262 classes build it: sorted ranges, plus Unicode property
/// tests that are too large to list, possibly negated as a whole.
struct RegexScalarSet: Sendable {
    private(set) var ranges: [ClosedRange<UInt32>] = []
    private(set) var properties: [RegexUnicodeProperty] = []
    var negated = false

    init() {}

    init(ranges: [ClosedRange<UInt32>], negated: Bool = false) {
        self.ranges = Self.merged(ranges)
        self.negated = negated
    }

    mutating func insert(_ range: ClosedRange<UInt32>) { ranges = Self.merged(ranges + [range]) }

    /// Adds every member of `other` (which may itself be negated, as `\D` inside `[...]` is).
    mutating func formUnion(_ other: RegexScalarSet) {
        if other.negated {
            if other.properties.isEmpty {
                ranges = Self.merged(ranges + Self.complement(other.ranges))
            } else {
                properties.append(RegexUnicodeProperty(name: "complement", negated: false) { other.contains($0.value) })
            }
        } else {
            ranges = Self.merged(ranges + other.ranges)
            properties += other.properties
        }
    }

    mutating func insert(_ property: RegexUnicodeProperty) { properties.append(property) }

    func contains(_ codePoint: UInt32) -> Bool {
        var found = rangesContain(codePoint)
        if !found, !properties.isEmpty, let scalar = Unicode.Scalar(codePoint) {
            found = properties.contains { $0.test(scalar) != $0.negated }
        }
        return found != negated
    }

    private func rangesContain(_ codePoint: UInt32) -> Bool {
        var low = 0, high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < codePoint { low = middle + 1 } else { high = middle }
        }
        return low < ranges.count && ranges[low].contains(codePoint)
    }

    static func merged(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        var result: [ClosedRange<UInt32>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, range.lowerBound <= last.upperBound &+ 1 {
                result[result.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }

    static func complement(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        var result: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for range in merged(ranges) {
            if range.lowerBound > next { result.append(next...(range.lowerBound - 1)) }
            next = range.upperBound &+ 1
            if range.upperBound == 0x10FFFF { return result }
        }
        if next <= 0x10FFFF { result.append(next...0x10FFFF) }
        return result
    }

    // ECMA-262's class escapes. `\d` and `\w` are ASCII only; `\s` is WhiteSpace plus
    // LineTerminator, which includes U+00A0, U+FEFF and every Space_Separator (Zs).
    static let digits = RegexScalarSet(ranges: [0x30...0x39])
    static let wordCharacters = RegexScalarSet(ranges: [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
    static let whiteSpace = RegexScalarSet(ranges: [
        0x09...0x0D, 0x20...0x20, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A,
        0x2028...0x2029, 0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000, 0xFEFF...0xFEFF,
    ])
    static let lineTerminators: [UInt32] = [0x0A, 0x0D, 0x2028, 0x2029]

    static func isWordCharacter(_ codePoint: UInt32) -> Bool {
        (0x30...0x39).contains(codePoint) || (0x41...0x5A).contains(codePoint)
            || (0x61...0x7A).contains(codePoint) || codePoint == 0x5F
    }
}
