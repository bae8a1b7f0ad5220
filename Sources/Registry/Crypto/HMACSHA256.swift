import CLibCrypto

/// HMAC-SHA256 (RFC 2104) from libcrypto, with the SHA-256 that `SHA256` fetched once. Signs
/// webhook deliveries. No libcrypto type leaves this file.
public enum HMACSHA256 {
    /// The 32-byte MAC of `message` under `key`. `HMAC` fails only when it cannot allocate,
    /// which stops the process as running out of memory anywhere else in Swift does.
    public static func mac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: SHA256.byteCount) { digest, initialized in
            var length: UInt32 = 0
            let result = key.withUnsafeBytes { keyBytes in
                message.withUnsafeBytes { messageBytes in
                    HMAC(
                        SHA256.algorithm.digest, keyBytes.baseAddress, Int32(keyBytes.count),
                        messageBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), messageBytes.count, digest.baseAddress, &length)
                }
            }
            precondition(result != nil && length == SHA256.byteCount, "libcrypto could not compute an HMAC-SHA256")
            initialized = SHA256.byteCount
        }
    }
}
