#if canImport(Glibc)
import Glibc
#endif

/// The real time as Unix seconds; injected into `RegistryAPI` so tests can fix the clock.
public enum WallClock {
    public static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
    }
}
