import Registry
import Testing

/// A keyring opens a sealed secret with the key its envelope names, current or old; refuses an
/// id it does not hold by naming every id; reports a damaged secret under an old key as
/// damaged; and shows key ids only.
@Suite struct WebhookSecretKeyringTests {
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

    @Test func aSecretOpensWithTheCurrentOrAnOldKeyItNames() throws {
        let current = WebhookSecretKey.generate()
        let old = [WebhookSecretKey.generate(), WebhookSecretKey.generate()]
        let keyring = WebhookSecretKeyring(current: current, old: old)
        var opened = 0
        for key in [current] + old {
            let sealed = WebhookSecretEnvelope.seal(Self.secret, with: key)
            #expect(try WebhookSecretEnvelope.open(sealed, keyring: keyring) == Self.secret)
            #expect(keyring.key(id: key.id)?.id == key.id)
            opened += 1
        }
        #expect(opened == 3)
        #expect(!keyring.isOld(id: current.id) && keyring.isOld(id: old[0].id) && keyring.isOld(id: old[1].id))
        // As issued it opens as itself; sealing is with the current key only.
        #expect(try WebhookSecretEnvelope.open(Self.secret, keyring: keyring) == Self.secret)
        #expect(WebhookSecretEnvelope.keyID(of: WebhookSecretEnvelope.stored(Self.secret, key: keyring.current)) == current.id)
    }

    @Test func anIDTheKeyringDoesNotHoldIsRefusedNamingEveryID() throws {
        let current = WebhookSecretKey.generate()
        let old = WebhookSecretKey.generate()
        let unknown = WebhookSecretKey.generate()
        let sealed = WebhookSecretEnvelope.seal(Self.secret, with: unknown)
        let error = WebhookSecretUnreadable.otherKey(sealedWith: unknown.id, configured: current.id, old: [old.id])
        #expect(throws: error) { try WebhookSecretEnvelope.open(sealed, keyring: WebhookSecretKeyring(current: current, old: [old])) }
        #expect(error.description.contains("sealed with key \(unknown.id)") && error.description.contains("(keys \(old.id))"))
        #expect(throws: WebhookSecretUnreadable.noKey(sealedWith: unknown.id)) { try WebhookSecretEnvelope.open(sealed, keyring: nil) }
        // Without old keys the reason reads as it did before keyrings.
        #expect(throws: WebhookSecretUnreadable.otherKey(sealedWith: unknown.id, configured: current.id)) {
            try WebhookSecretEnvelope.open(sealed, keyring: WebhookSecretKeyring(current: current))
        }
    }

    /// An id is matched byte for byte: an upper-case spelling of an old key's id, or one a
    /// digit short or long, names no key.
    @Test func idsAreComparedAsBytes() throws {
        let current = WebhookSecretKey.generate()
        let old = try #require(WebhookSecretKey(bytes: [UInt8](repeating: 1, count: 32)))
        #expect(old.id.uppercased() != old.id, "the fixed key's id \(old.id) has a letter")
        let keyring = WebhookSecretKeyring(current: current, old: [old])
        #expect(keyring.key(id: old.id)?.id == old.id)
        #expect(keyring.key(id: old.id.uppercased()) == nil && !keyring.isOld(id: old.id.uppercased()))
        #expect(keyring.key(id: String(old.id.dropLast())) == nil && keyring.key(id: old.id + "0") == nil)
        let sealed = WebhookSecretEnvelope.seal(Self.secret, with: old)
        let shouted = sealed.replacing("v1:\(old.id):", with: "v1:\(old.id.uppercased()):")
        #expect(throws: WebhookSecretUnreadable.damaged(keyID: nil)) { try WebhookSecretEnvelope.open(shouted, keyring: keyring) }
    }

    /// A changed byte under an old key is damaged, like one under the current key.
    @Test func aDamagedSecretUnderAnOldKeyIsDamaged() throws {
        let current = WebhookSecretKey.generate()
        let old = WebhookSecretKey.generate()
        let keyring = WebhookSecretKeyring(current: current, old: [old])
        let sealed = WebhookSecretEnvelope.seal(Self.secret, with: old)
        let head = "v1:\(old.id):"
        var body = try #require(Base64.decode(String(sealed.dropFirst(head.count))))
        body[body.count - 1] ^= 0x01
        #expect(throws: WebhookSecretUnreadable.damaged(keyID: old.id)) { try WebhookSecretEnvelope.open(head + Base64.encode(body), keyring: keyring) }
        // Claiming the current key's id for a secret sealed with the old key fails too.
        let claimed = sealed.replacing(head, with: "v1:\(current.id):")
        #expect(throws: WebhookSecretUnreadable.damaged(keyID: current.id)) { try WebhookSecretEnvelope.open(claimed, keyring: keyring) }
    }

    @Test func repeatsOfTheCurrentKeyOrAnOldOneAreKeptOnceAndOnlyIDsShow() throws {
        let current = WebhookSecretKey.generate()
        let old = WebhookSecretKey.generate()
        let keyring = WebhookSecretKeyring(current: current, old: [old, current, old])
        #expect(keyring.old.map(\.id) == [old.id])
        #expect(keyring.collidingID == nil)
        #expect("\(keyring)" == "keyring: current \(current.id), old \(old.id)")
        #expect(String(reflecting: keyring) == "\(keyring)")
        #expect("\(WebhookSecretKeyring(current: current))" == "keyring: current \(current.id)")
    }
}
