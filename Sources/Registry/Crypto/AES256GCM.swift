import CLibCrypto

/// AES-256 in Galois/Counter Mode (NIST SP 800-38D) from libcrypto's EVP interface: encryption
/// that also authenticates, so a changed byte anywhere (ciphertext, tag, or the data bound with
/// `authenticating`) makes opening fail instead of yielding other plaintext. Seals webhook
/// signing secrets at rest. No libcrypto type leaves this file.
public enum AES256GCM {
    public static let keyByteCount = 32
    /// The 96-bit nonce GCM is designed for. A nonce must never repeat under one key: callers
    /// draw it at random, which is safe for far more than 2^32 messages per key.
    public static let nonceByteCount = 12
    public static let tagByteCount = 16

    /// The ciphertext of `plaintext` followed by its 16-byte tag. Failing to seal means libcrypto
    /// could not allocate, which stops the process as running out of memory elsewhere does.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], authenticating associated: [UInt8]) -> [UInt8] {
        precondition(key.count == keyByteCount && nonce.count == nonceByteCount, "AES-256-GCM takes a 32-byte key and a 12-byte nonce")
        let context = newContext()
        defer { EVP_CIPHER_CTX_free(context) }
        var sealed = [UInt8](repeating: 0, count: plaintext.count + tagByteCount)
        let status = sealed.withUnsafeMutableBufferPointer { out -> Bool in
            guard EVP_EncryptInit_ex2(context, cipher.pointer, key, nonce, nil) == 1 else { return false }
            var written: Int32 = 0
            if !associated.isEmpty {
                guard EVP_EncryptUpdate(context, nil, &written, associated, Int32(associated.count)) == 1 else { return false }
            }
            var length = 0
            if !plaintext.isEmpty {
                guard EVP_EncryptUpdate(context, out.baseAddress, &written, plaintext, Int32(plaintext.count)) == 1 else { return false }
                length = Int(written)
            }
            guard EVP_EncryptFinal_ex(context, out.baseAddress! + length, &written) == 1 else { return false }
            length += Int(written)
            guard length == plaintext.count else { return false }
            return EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32(tagByteCount), out.baseAddress! + length) == 1
        }
        precondition(status, "libcrypto could not seal with AES-256-GCM")
        return sealed
    }

    /// The plaintext of `sealed` (ciphertext and tag, as `seal` returns them); nil when it does
    /// not authenticate under this key, nonce and associated data, or is shorter than a tag.
    public static func open(_ sealed: [UInt8], key: [UInt8], nonce: [UInt8], authenticating associated: [UInt8]) -> [UInt8]? {
        guard key.count == keyByteCount, nonce.count == nonceByteCount, sealed.count >= tagByteCount else { return nil }
        let ciphertext = Array(sealed.dropLast(tagByteCount))
        var tag = Array(sealed.suffix(tagByteCount))
        let context = newContext()
        defer { EVP_CIPHER_CTX_free(context) }
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count + 1)
        let authentic = plaintext.withUnsafeMutableBufferPointer { out -> Bool in
            guard EVP_DecryptInit_ex2(context, cipher.pointer, key, nonce, nil) == 1 else { return false }
            var written: Int32 = 0
            if !associated.isEmpty {
                guard EVP_DecryptUpdate(context, nil, &written, associated, Int32(associated.count)) == 1 else { return false }
            }
            var length = 0
            if !ciphertext.isEmpty {
                guard EVP_DecryptUpdate(context, out.baseAddress, &written, ciphertext, Int32(ciphertext.count)) == 1 else { return false }
                length = Int(written)
            }
            guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, Int32(tagByteCount), &tag) == 1 else { return false }
            // The tag is checked here: a mismatch returns 0 and the plaintext must be dropped.
            guard EVP_DecryptFinal_ex(context, out.baseAddress! + length, &written) == 1 else { return false }
            return length + Int(written) == ciphertext.count
        }
        guard authentic else { return nil }
        return Array(plaintext.prefix(ciphertext.count))
    }

    /// libcrypto's AES-256-GCM, fetched from the default provider once (as `SHA256.algorithm`
    /// is); `EVP_aes_256_gcm()` remains the fallback should the fetch fail. Immutable and
    /// shared by every thread for the life of the process.
    static let cipher = Cipher(pointer: EVP_CIPHER_fetch(nil, "AES-256-GCM", nil) ?? EVP_aes_256_gcm())

    struct Cipher: @unchecked Sendable {
        let pointer: OpaquePointer?
    }

    /// One operation's cipher context; the caller frees it (libcrypto wipes it, key schedule
    /// included).
    private static func newContext() -> OpaquePointer {
        guard let context = EVP_CIPHER_CTX_new() else { preconditionFailure("libcrypto could not allocate a cipher context") }
        return context
    }
}
