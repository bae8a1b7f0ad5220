/// RFC 3492 Punycode, the encoding of IDNA A-labels (`xn--…`).
enum Punycode {
    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700, initialBias = 72, initialN = 128

    /// The code points `encoded` (without `xn--`) stands for; nil when it is not valid Punycode.
    static func decode(_ encoded: [Unicode.Scalar]) -> [UInt32]? {
        guard encoded.allSatisfy(\.isASCII) else { return nil }
        var output: [UInt32] = []
        var rest = encoded[...]
        if let delimiter = encoded.lastIndex(of: "-") {
            output = encoded[..<delimiter].map(\.value)
            rest = encoded[(delimiter + 1)...]
        }
        var n = initialN, i = 0, bias = initialBias
        var iterator = rest.makeIterator()
        var pending = iterator.next()
        while pending != nil {
            let oldI = i
            var weight = 1, k = base
            while true {
                guard let scalar = pending, let digit = digitValue(scalar) else { return nil }
                pending = iterator.next()
                let (product, overflow) = digit.multipliedReportingOverflow(by: weight)
                guard !overflow, i <= Int(Int32.max) - product else { return nil }
                i += product
                let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                if digit < t { break }
                guard pending != nil else { return nil }
                weight *= base - t
                guard weight <= Int(Int32.max) else { return nil }
                k += base
            }
            bias = adapt(i - oldI, output.count + 1, oldI == 0)
            n += i / (output.count + 1)
            i %= output.count + 1
            guard n <= 0x10FFFF else { return nil }
            output.insert(UInt32(n), at: i)
            i += 1
        }
        return output
    }

    /// The Punycode of `codePoints` (without `xn--`).
    static func encode(_ codePoints: [UInt32]) -> [Unicode.Scalar] {
        var output: [Unicode.Scalar] = codePoints.filter { $0 < 0x80 }.compactMap(Unicode.Scalar.init)
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append("-") }
        var n = initialN, delta = 0, bias = initialBias
        while handled < codePoints.count {
            let m = Int(codePoints.filter { Int($0) >= n }.min() ?? 0)
            delta += (m - n) * (handled + 1)
            n = m
            for codePoint in codePoints {
                if Int(codePoint) < n { delta += 1 }
                if Int(codePoint) == n {
                    var q = delta, k = base
                    while true {
                        let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                        if q < t { break }
                        output.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digit(q))
                    bias = adapt(delta, handled + 1, handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return output
    }

    private static func adapt(_ delta: Int, _ count: Int, _ first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / count
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    private static func digitValue(_ scalar: Unicode.Scalar) -> Int? {
        switch scalar {
        case "a"..."z": Int(scalar.value - 0x61)
        case "A"..."Z": Int(scalar.value - 0x41)
        case "0"..."9": Int(scalar.value - 0x30) + 26
        default: nil
        }
    }

    private static func digit(_ value: Int) -> Unicode.Scalar {
        Unicode.Scalar(UInt8(value < 26 ? 0x61 + value : 0x30 + value - 26))
    }
}
