/// What a value's heap blocks cost the process, for caches that count their memory. Swift's
/// arrays and large strings live in one block each behind a 32-byte header (object header,
/// count, capacity), and malloc rounds each block up and keeps a word of its own (16 bytes is
/// its usual overhead on 64-bit glibc).
enum HeapSize {
    static let blockOverhead = 32 + 16

    /// The array's block: its capacity, not its count, is what is allocated.
    static func of(_ bytes: [UInt8]) -> Int {
        bytes.capacity == 0 ? 0 : blockOverhead + bytes.capacity
    }

    /// Strings of up to 15 UTF-8 bytes are stored inline; longer native ones have a block
    /// holding their bytes and a terminating NUL.
    static func of(_ string: String) -> Int {
        let count = string.utf8.count
        return count <= 15 ? 0 : blockOverhead + count + 1
    }

    /// `bytes` in a block of exactly their size.
    static func exact(_ bytes: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, initialized in
            initialized = buffer.initialize(fromContentsOf: bytes)
        }
    }
}
