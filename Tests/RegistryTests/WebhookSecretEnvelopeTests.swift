import Registry
import Testing

/// Webhook signing secrets sealed at rest: the envelope round-trips, refuses another key or no
/// key by naming key ids, refuses every tampered byte, draws a fresh nonce for every seal, and
/// neither the key nor a secret ever shows in a description or an error.
@Suite struct WebhookSecretEnvelopeTests {
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

    @Test func aSealedSecretOpensAsIssued() throws {
        let key = WebhookSecretKey.generate()
        let sealed = WebhookSecretEnvelope.seal(Self.secret, with: key)
        #expect(sealed.hasPrefix("v1:\(key.id):"))
        #expect(!sealed.contains("whsec_") && !sealed.contains("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
        #expect(WebhookSecretEnvelope.isSealed(sealed) && WebhookSecretEnvelope.keyID(of: sealed) == key.id)
        #expect(try WebhookSecretEnvelope.open(sealed, with: key) == Self.secret)
        let fresh = WebhookSecret.generate()
        #expect(try WebhookSecretEnvelope.open(WebhookSecretEnvelope.stored(fresh, key: key), with: key) == fresh)
    }

    /// Without a key secrets are stored as issued, and one stored as issued opens as itself
    /// with or without a key (so secrets keep signing until the start-up pass seals them).
    @Test func withoutAKeySecretsAreStoredAsIssued() throws {
        #expect(WebhookSecretEnvelope.stored(Self.secret, key: nil) == Self.secret)
        #expect(!WebhookSecretEnvelope.isSealed(Self.secret) && WebhookSecretEnvelope.keyID(of: Self.secret) == nil)
        #expect(try WebhookSecretEnvelope.open(Self.secret, with: nil) == Self.secret)
        #expect(try WebhookSecretEnvelope.open(Self.secret, with: WebhookSecretKey.generate()) == Self.secret)
        #expect(throws: WebhookSecretUnreadable.notASecret) { try WebhookSecretEnvelope.open("hunter2", with: nil) }
    }

    @Test func anotherKeyOrNoKeyIsRefusedNamingTheKeyIDs() throws {
        let key = WebhookSecretKey.generate()
        let other = WebhookSecretKey.generate()
        #expect(key.id != other.id)
        let sealed = WebhookSecretEnvelope.seal(Self.secret, with: key)
        #expect(throws: WebhookSecretUnreadable.otherKey(sealedWith: key.id, configured: other.id)) {
            try WebhookSecretEnvelope.open(sealed, with: other)
        }
        #expect(throws: WebhookSecretUnreadable.noKey(sealedWith: key.id)) { try WebhookSecretEnvelope.open(sealed, with: nil) }
        // A key that claims the right id but is another key (what a forged id amounts to) fails
        // authentication.
        let forged = sealed.replacing("v1:\(key.id):", with: "v1:\(other.id):")
        #expect(throws: WebhookSecretUnreadable.damaged(keyID: other.id)) { try WebhookSecretEnvelope.open(forged, with: other) }
    }

    /// Every byte of the nonce, ciphertext and tag matters: each single-bit change is refused as
    /// damaged, none yields a secret.
    @Test func everyTamperedByteIsRefused() throws {
        let key = WebhookSecretKey.generate()
        let sealed = WebhookSecretEnvelope.seal(Self.secret, with: key)
        let head = "v1:\(key.id):"
        let body = try #require(Base64.decode(String(sealed.dropFirst(head.count))))
        #expect(body.count == AES256GCM.nonceByteCount + Self.secret.utf8.count + AES256GCM.tagByteCount)
        var refused = 0
        for index in body.indices {
            var changed = body
            changed[index] ^= 0x04
            #expect(throws: WebhookSecretUnreadable.damaged(keyID: key.id), "byte \(index)") {
                try WebhookSecretEnvelope.open(head + Base64.encode(changed), with: key)
            }
            refused += 1
        }
        #expect(refused == body.count)
        for truncated in [head + "AAAA", head + Base64.encode(Array(body.dropLast())), head + "not base64!", String(sealed.dropLast(2))] {
            #expect(throws: WebhookSecretUnreadable.damaged(keyID: key.id), "\(truncated)") { try WebhookSecretEnvelope.open(truncated, with: key) }
        }
        for malformed in ["v1:", head, "v1:XYZ12345:AAAA", "v1:\(key.id)", "v1:\(key.id.uppercased()):AAAA"] {
            #expect(throws: WebhookSecretUnreadable.self, "\(malformed)") { try WebhookSecretEnvelope.open(malformed, with: key) }
        }
    }

    /// A nonce must never repeat under one key: every seal draws 12 fresh random bytes, so one
    /// secret sealed many times gives as many texts and nonces.
    @Test func everySealHasItsOwnNonce() throws {
        let key = WebhookSecretKey.generate()
        let head = "v1:\(key.id):"
        let sealed = (0..<2000).map { _ in WebhookSecretEnvelope.seal(Self.secret, with: key) }
        let nonces = try sealed.map { try #require(Base64.decode(String($0.dropFirst(head.count)))).prefix(AES256GCM.nonceByteCount) }
        #expect(Set(sealed).count == 2000)
        #expect(Set(nonces.map { Array($0) }).count == 2000)
        #expect(try sealed.allSatisfy { try WebhookSecretEnvelope.open($0, with: key) == Self.secret })
    }

    @Test func theKeyIsTheBase64Of32BytesAndNeverShowsItself() throws {
        let bytes = (0..<32).map { UInt8($0 * 7 & 0xFF) }
        let text = Base64.encode(bytes)
        let key = try #require(WebhookSecretKey(base64: text))
        #expect(key.id.utf8.count == 8 && key.id.allSatisfy(\.isHexDigit) && key.id == key.id.lowercased())
        #expect(WebhookSecretKey(bytes: bytes)?.id == key.id, "the id names the key: the same key, the same id")
        #expect(WebhookSecretKey(base64: Base64.encode(Array(bytes.dropLast()))) == nil)
        #expect(WebhookSecretKey(base64: Base64.encode(bytes + [0])) == nil)
        #expect(WebhookSecretKey(base64: "not base64") == nil)
        var dumped = ""
        dump(key, to: &dumped)
        for shown in ["\(key)", String(reflecting: key), dumped, "\(Optional(key) as Any)"] {
            #expect(shown.contains(key.id) && !shown.contains(text) && !shown.contains("\(bytes)"), "\(shown)")
        }
    }

    /// The reasons a secret does not open are logged and shown in the delivery log: they name
    /// key ids and never the sealed text, the secret or the key.
    @Test func reasonsNameKeyIDsOnly() throws {
        let key = WebhookSecretKey.generate()
        let other = WebhookSecretKey.generate()
        let sealed = WebhookSecretEnvelope.seal(Self.secret, with: key)
        var reasons: [WebhookSecretUnreadable] = []
        for (stored, with) in [(sealed, other), (sealed, nil), (String(sealed.dropLast(4)) + "AAAA", key), ("whsec_?", key)] {
            do {
                _ = try WebhookSecretEnvelope.open(stored, with: with)
            } catch {
                reasons.append(error)
            }
        }
        #expect(reasons.count == 4)
        for reason in reasons {
            let text = reason.description
            #expect(!text.contains("whsec_") && !text.contains(String(sealed.dropFirst(12).prefix(16))), "\(text)")
        }
        #expect(reasons[0].description.contains(key.id) && reasons[0].description.contains(other.id))
    }
}
