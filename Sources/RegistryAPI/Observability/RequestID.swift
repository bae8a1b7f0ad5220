import Registry
import Synchronization

/// Request ids: an incoming `X-Request-Id` is kept when it is short and plain (so a gateway's
/// id ties its logs to ours), anything else is replaced by a fresh random id, so a client
/// cannot inject arbitrary text into logs.
public enum RequestID {
    public static let maxLength = 128

    public static func accept(_ incoming: String?) -> String {
        if let incoming, !incoming.isEmpty, incoming.utf8.count <= maxLength,
            incoming.utf8.allSatisfy({ isSafe($0) })
        {
            return incoming
        }
        return generate()
    }

    /// 64 random bits per process and a counter: unique across replicas and restarts without a
    /// system call per request. Written as 32 hex digits straight into one string: every request
    /// without an incoming id makes one.
    public static func generate() -> String {
        let sequence = UInt64(bitPattern: counter.wrappingAdd(1, ordering: .relaxed).oldValue)
        return String(unsafeUninitializedCapacity: 32) { out in
            writeHex(processRandom, into: out, at: 0)
            writeHex(sequence, into: out, at: 16)
            return 32
        }
    }

    /// The 16 lowercase hex digits of `value`, most significant first.
    private static func writeHex(_ value: UInt64, into out: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        for index in 0..<16 {
            let nibble = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * index)) & 0xF
            out[offset + index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
        }
    }

    private static let processRandom: UInt64 = {
        var rng = SystemRandomNumberGenerator()
        return rng.next()
    }()

    private static let counter = Atomic<Int64>(0)

    private static func isSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"):
            true
        default:
            false
        }
    }
}
