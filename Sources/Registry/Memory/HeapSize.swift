/// What a value's heap blocks cost the process, for caches that count their memory. Swift's
/// arrays and large strings live in one block each behind a 32-byte header (object header,
/// count, capacity), and malloc rounds each block up and keeps a word of its own (16 bytes is
/// its usual overhead on 64-bit glibc).
public enum HeapSize {
    public static let blockOverhead = 32 + 16
    /// A boxed value (an `indirect` enum case): a 16-byte object header before the payload,
    /// plus malloc's own 16.
    public static let boxOverhead = 16 + 16

    /// The array's block: its capacity, not its count, is what is allocated. Elements' own
    /// blocks are not included.
    public static func of<Element>(_ elements: [Element]) -> Int {
        elements.capacity == 0 ? 0 : blockOverhead + elements.capacity * MemoryLayout<Element>.stride
    }

    /// The dictionary's block: a header, then its buckets' keys and values (and a bit each),
    /// of which it keeps at most three quarters in use. Keys' and values' own blocks are not
    /// included.
    public static func of<Key, Value>(_ dictionary: [Key: Value]) -> Int {
        guard dictionary.capacity > 0 else { return 0 }
        let buckets = dictionary.capacity * 4 / 3
        return blockOverhead + 32 + buckets * (MemoryLayout<Key>.stride + MemoryLayout<Value>.stride) + buckets / 8
    }

    /// Strings of up to 15 UTF-8 bytes are stored inline; longer native ones have a block
    /// holding their bytes and a terminating NUL.
    public static func of(_ string: String) -> Int {
        let count = string.utf8.count
        return count <= 15 ? 0 : blockOverhead + count + 1
    }

    /// A parsed JSON value's blocks: its strings and numbers, its arrays' and objects' member
    /// lists and everything in them.
    public static func of(_ value: JSONValue) -> Int {
        switch value {
        case .null, .bool: 0
        case .number(let text), .string(let text): of(text)
        case .array(let elements): elements.reduce(of(elements)) { $0 + of($1) }
        case .object(let object): of(object)
        }
    }

    public static func of(_ object: JSONObject) -> Int {
        object.members.reduce(of(object.members)) { $0 + of($1.key) + of($1.value) }
    }

    /// `bytes` in a block of exactly their size.
    public static func exact(_ bytes: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, initialized in
            initialized = buffer.initialize(fromContentsOf: bytes)
        }
    }
}
