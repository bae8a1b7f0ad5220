import CLibCrypto

/// SHA-256 (FIPS 180-4) from OpenSSL's libcrypto (`EVP_Digest`), which libpq loads anyway. The
/// service hashes every presented API token (tokens are stored hashed only), every cached body
/// (content-addressed ETags) and every idempotent request body, so it uses the library that runs
/// on the CPU's SHA instructions rather than its own code. No libcrypto type leaves this file.
public enum SHA256 {
    /// Bytes in a digest.
    public static let byteCount = 32

    /// The digest of `bytes`, hashed in place when they are contiguous. Inlinable so that
    /// callers in other modules reach their bytes with specialized code rather than through
    /// generic witness tables.
    @inlinable
    public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        if let digest = bytes.withContiguousStorageIfAvailable({ hash(buffer: UnsafeRawBufferPointer($0)) }) {
            return digest
        }
        return hash(bytes: Array(bytes))
    }

    /// The digest of `message`.
    public static func hash(bytes message: [UInt8]) -> [UInt8] {
        message.withUnsafeBytes { hash(buffer: $0) }
    }

    /// The digest of the bytes in `buffer`. `EVP_Digest` fails only when it cannot allocate its
    /// context, which leaves nothing sensible to hash with: that stops the process, as running
    /// out of memory anywhere else in Swift does.
    public static func hash(buffer: UnsafeRawBufferPointer) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: byteCount) { digest, initialized in
            var length: UInt32 = 0
            let status = EVP_Digest(buffer.baseAddress, buffer.count, digest.baseAddress, &length, algorithm.digest, nil)
            precondition(status == 1 && length == byteCount, "libcrypto could not compute a SHA-256 digest")
            initialized = byteCount
        }
    }

    /// libcrypto's SHA-256, fetched from the default provider once. `EVP_sha256()` would make
    /// OpenSSL 3 look the algorithm up again on every call, which costs more than hashing an API
    /// token (measured: about 2.5× the time of a 40-byte digest); `EVP_sha256()` remains the
    /// fallback should the fetch fail.
    static let algorithm = Algorithm(digest: EVP_MD_fetch(nil, "SHA256", nil) ?? EVP_sha256())

    /// A fetched algorithm is immutable and reference-counted atomically, so threads share it;
    /// it lives as long as the process.
    struct Algorithm: @unchecked Sendable {
        let digest: OpaquePointer?
    }

    /// The lowercase hex digest of `bytes`.
    @inlinable
    public static func hexHash(_ bytes: some Sequence<UInt8>) -> String {
        Hex.encode(hash(bytes))
    }
}
