#if canImport(Glibc)
import Foundation
import Glibc

/// Two glibc malloc settings that keep the resident size near what the service really uses;
/// an explicit `MALLOC_ARENA_MAX` or `MALLOC_MMAP_THRESHOLD_` in the environment still wins.
///
/// - Arenas: glibc gives threads arenas of their own (up to eight per core) and memory freed in
///   one is not reused by another; with event loops and handler threads this multiplied the
///   resident size under load. Two were measured to cut list-heavy RSS by a third at no cost.
/// - mmap threshold: list pages and forms are buffers of hundreds of KB. By default glibc raises
///   its threshold after freeing one, so later ones come from the heap and stay resident when
///   freed; a fixed 128 KiB keeps them mapped apart and returned to the system when freed.
enum MallocTuning {
    /// `M_MMAP_THRESHOLD` and `M_ARENA_MAX` from `<malloc.h>`, which Swift's Glibc module does
    /// not import.
    private static let mmapThresholdParameter: Int32 = -3
    private static let arenaMaxParameter: Int32 = -8

    static func apply(environment: [String: String]) {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        if environment["MALLOC_ARENA_MAX"] == nil { _ = mallopt(arenaMaxParameter, 2) }
        if environment["MALLOC_MMAP_THRESHOLD_"] == nil { _ = mallopt(mmapThresholdParameter, 128 << 10) }
    }

    /// glibc keeps freed heap pages resident: after a burst of large requests the process
    /// stayed at its peak (161 MB, 1 GB in one abuse run) with little of it in use.
    /// `malloc_trim(0)` hands the free pages back; a thread calls it every `seconds`, which
    /// costs well under a millisecond when there is nothing to return.
    static func returnFreedMemory(everySeconds seconds: Double) {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        typealias MallocTrim = @convention(c) (Int) -> Int32
        let trim = unsafeBitCast(symbol, to: MallocTrim.self)
        let thread = Thread {
            while true {
                Thread.sleep(forTimeInterval: seconds)
                _ = trim(0)
            }
        }
        thread.name = "malloc-trim"
        thread.start()
    }
}
#else
enum MallocTuning {
    static func apply(environment: [String: String]) {}
    static func returnFreedMemory(everySeconds seconds: Double) {}
}
#endif
