import Registry
import Testing

/// SHA-256 from libcrypto matches FIPS 180-4's vectors, whichever way the bytes are handed over.
@Suite struct SHA256Tests {
    @Test func matchesTheFIPSVectors() {
        #expect(SHA256.hexHash("".utf8) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hexHash("abc".utf8) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hexHash("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256.hexHash([UInt8](repeating: 0x61, count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func contiguousAndOtherSequencesHashAlike() {
        let text = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        let expected = SHA256.hash(bytes: Array(text.utf8))
        #expect(expected.count == SHA256.byteCount)
        #expect(SHA256.hash(text.utf8) == expected)
        #expect(SHA256.hash(text.utf8.lazy.map { $0 }) == expected)
        #expect(SHA256.hash(Array(text.utf8)[...]) == expected)
        #expect(SHA256.hash([UInt8]()) == SHA256.hash("".utf8))
    }

    @Test func generatedTokensAreUniqueAndHashToTheirRecord() {
        let a = APIToken.generate()
        let b = APIToken.generate()
        #expect(a.secret != b.secret)
        #expect(a.secret.hasPrefix("lar_"))
        #expect(APIToken.hash(a.secret) == a.hash)
    }
}
