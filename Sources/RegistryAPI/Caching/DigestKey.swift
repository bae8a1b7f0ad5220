/// A SHA-256 digest as a cache key. Its first eight bytes are already uniformly spread, so
/// hashing just those is enough, and much cheaper than feeding all 32 to the hasher one by one
/// on every request.
struct DigestKey: Hashable, Sendable {
    let bytes: [UInt8]

    func hash(into hasher: inout Hasher) {
        var prefix: UInt64 = 0
        for byte in bytes.prefix(8) { prefix = prefix << 8 | UInt64(byte) }
        hasher.combine(prefix)
    }
}
