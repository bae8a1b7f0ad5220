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
    /// system call per request.
    public static func generate() -> String {
        let sequence = UInt64(bitPattern: Int64(counter.wrappingAdd(1, ordering: .relaxed).oldValue))
        return processPrefix + Hex.encode((0..<8).map { UInt8(truncatingIfNeeded: sequence >> (56 - 8 * UInt64($0))) })
    }

    private static let processPrefix: String = {
        var rng = SystemRandomNumberGenerator()
        let random = rng.next() as UInt64
        return Hex.encode((0..<8).map { UInt8(truncatingIfNeeded: random >> (56 - 8 * UInt64($0))) })
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
