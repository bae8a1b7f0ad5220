import Registry
import Testing

/// AES-256-GCM from libcrypto, checked against a published answer: test case 16 of McGrew and
/// Viega's GCM specification (a 256-bit key, 96-bit IV, associated data and a plaintext that
/// is not a whole number of blocks), which the `cryptography` package reproduces too.
@Suite struct AES256GCMTests {
    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    }

    static let key = bytes("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308")
    static let nonce = bytes("cafebabefacedbaddecaf888")
    static let plaintext = bytes(
        "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39")
    static let associated = bytes("feedfacedeadbeeffeedfacedeadbeefabaddad2")
    static let ciphertext = bytes(
        "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662")
    static let tag = bytes("76fc6ece0f4e1768cddf8853bb2d551b")

    @Test func sealsThePublishedTestCase() {
        #expect(AES256GCM.seal(Self.plaintext, key: Self.key, nonce: Self.nonce, authenticating: Self.associated) == Self.ciphertext + Self.tag)
    }

    @Test func opensThePublishedTestCase() {
        #expect(AES256GCM.open(Self.ciphertext + Self.tag, key: Self.key, nonce: Self.nonce, authenticating: Self.associated) == Self.plaintext)
    }

    /// Every single-byte change of the ciphertext or tag, and any change of the key, nonce or
    /// associated data, fails authentication: nothing is returned.
    @Test func anyChangeFailsToOpen() {
        let sealed = Self.ciphertext + Self.tag
        var refused = 0
        for index in sealed.indices {
            var changed = sealed
            changed[index] ^= 0x01
            #expect(AES256GCM.open(changed, key: Self.key, nonce: Self.nonce, authenticating: Self.associated) == nil, "byte \(index)")
            refused += 1
        }
        #expect(refused == Self.ciphertext.count + AES256GCM.tagByteCount)
        var otherKey = Self.key
        otherKey[31] ^= 0x80
        var otherNonce = Self.nonce
        otherNonce[0] ^= 0x01
        #expect(AES256GCM.open(sealed, key: otherKey, nonce: Self.nonce, authenticating: Self.associated) == nil)
        #expect(AES256GCM.open(sealed, key: Self.key, nonce: otherNonce, authenticating: Self.associated) == nil)
        #expect(AES256GCM.open(sealed, key: Self.key, nonce: Self.nonce, authenticating: Self.associated.dropLast()) == nil)
        #expect(AES256GCM.open(sealed, key: Self.key, nonce: Self.nonce, authenticating: []) == nil)
        #expect(AES256GCM.open(Array(sealed.prefix(15)), key: Self.key, nonce: Self.nonce, authenticating: Self.associated) == nil)
        #expect(AES256GCM.open(sealed.dropLast(), key: Self.key, nonce: Self.nonce, authenticating: Self.associated) == nil)
    }

    @Test func emptyPlaintextAndAssociatedDataRoundTrip() {
        let sealed = AES256GCM.seal([], key: Self.key, nonce: Self.nonce, authenticating: [])
        #expect(sealed.count == AES256GCM.tagByteCount)
        #expect(AES256GCM.open(sealed, key: Self.key, nonce: Self.nonce, authenticating: []) == [])
    }
}
