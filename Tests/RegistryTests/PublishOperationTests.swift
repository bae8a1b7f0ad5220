import Registry
import Testing

/// The publish operation as a sequence over a transaction, driven over an in-memory store that
/// keeps a transaction's writes only when its body returns, as the database does.
@Suite struct PublishOperationTests {
    static let application = Application(id: 1, code: "APPLI-AAAAA", name: "", accountID: 7, created: "")
    static let a = #"{"type":"object"}"#
    static let b = #"{"type":"object","title":"B"}"#

    static func publish(
        _ store: MemoryStore, _ text: String, version: VersionRequest = .nextFree, once claim: IdempotencyClaim? = nil,
        answer: String = "ok", warnings: [JSONValue] = [], fieldPaths: [String]? = nil,
        review: (Publication) async throws -> Void = { _ in }
    ) async throws -> PublishOutcome {
        try await store.publish(
            application: application, attributesType: "Flight", version: version, jsonSchema: text, by: .cli,
            fieldPaths: fieldPaths, comparing: Comparison(limit: 100), once: claim,
            response: { publication in
                try await review(publication)
                return PublishAnswer(body: Array(answer.utf8), auditDetails: ["answer": .string(answer)], warnings: warnings)
            })
    }

    @Test func versionsAreAllocatedInOrderAndEachIsAuditedWithItsAnswer() async throws {
        let store = MemoryStore()
        var compared: [Int32?] = []
        for text in [Self.a, Self.b] {
            guard case .published(let schema, let body) = try await Self.publish(store, text, review: { compared.append($0.basis.newest?.version) })
            else {
                Issue.record("not published")
                return
            }
            #expect(body == Array("ok".utf8))
            #expect(schema.version == Int32(store.committed.versions.count))
        }
        #expect(compared == [nil, 1])
        #expect(store.committed.audit.map(\.version) == [1, 2])
        #expect(store.committed.audit.allSatisfy { $0.action == .publish && $0.details["answer"] == .string("ok") })
        await #expect(throws: RegistryError.alreadyExists("version 2 exists")) { try await Self.publish(store, Self.a, version: .explicit(2)) }
    }

    @Test func fieldPathsGoWithTheInsertAndOnlyAnswersWithWarningsRewriteTheVersion() async throws {
        let store = MemoryStore()
        _ = try await Self.publish(store, Self.a, fieldPaths: ["title"])
        _ = try await Self.publish(store, Self.b, warnings: ["careful"])
        #expect(store.committed.fieldPaths == [1: ["title"], 2: nil])
        #expect(store.committed.warnings == [2: ["careful"]])
    }

    @Test func aClaimedKeyReplaysItsResponseAndRefusesAnotherBody() async throws {
        let store = MemoryStore()
        let claim = IdempotencyClaim(accountID: 7, applicationID: 1, key: "k", requestHash: [1])
        #expect(try await Self.publish(store, Self.a, once: claim, answer: "first") == .published(store.committed.versions[0], body: Array("first".utf8)))
        #expect(try await Self.publish(store, Self.b, once: claim, answer: "second") == .replayed(body: Array("first".utf8)))
        await #expect(throws: IdempotencyKey.mismatch("k")) {
            try await Self.publish(store, Self.b, once: IdempotencyClaim(accountID: 7, applicationID: 1, key: "k", requestHash: [2]))
        }
        #expect(store.committed.versions.count == 1 && store.committed.audit.count == 1)
    }

    @Test func aRefusingReviewRollsBackTheVersionTheAuditEventAndTheClaim() async throws {
        let store = MemoryStore()
        let claim = IdempotencyClaim(accountID: 7, applicationID: 1, key: "k", requestHash: [1])
        await #expect(throws: RegistryError.alreadyExists("refused")) {
            try await Self.publish(store, Self.a, once: claim, review: { _ in throw RegistryError.alreadyExists("refused") })
        }
        #expect(store.committed.versions.isEmpty && store.committed.audit.isEmpty && store.committed.keys.isEmpty)
        guard case .published(let schema, _) = try await Self.publish(store, Self.a, once: claim) else {
            Issue.record("the key was not freed")
            return
        }
        #expect(schema.version == 1)
    }

    @Test func anIdenticalNewestVersionIsReturnedAndNothingIsWritten() async throws {
        let store = MemoryStore()
        _ = try await Self.publish(store, Self.a)
        let claim = IdempotencyClaim(accountID: 7, applicationID: 1, key: "k", requestHash: [1])
        let unless = { (text: String) in
            try await store.publish(
                application: Self.application, attributesType: "Flight", version: .nextFree, jsonSchema: text, by: .cli,
                comparing: Comparison(limit: 100), once: claim, returningIdenticalNewest: true,
                response: { _ in PublishAnswer(body: Array("new".utf8), auditDetails: [:]) })
        }
        #expect(try await unless(Self.a) == .existing(store.committed.versions[0]))
        #expect(store.committed.keys.isEmpty && store.committed.audit.count == 1)
        #expect(try await unless(Self.b) == .published(store.committed.versions[1], body: Array("new".utf8)))
        #expect(store.committed.audit.count == 2)
    }
}

/// A store holding one type's versions, keys and audit events in memory.
final class MemoryStore: PublishingStore {
    struct State {
        var versions: [SchemaVersion] = []
        var counter: Int32 = 0
        var keys: [ExactName: StoredResponse] = [:]
        var audit: [AuditRecord] = []
        /// What each version was inserted with, and the warnings recorded for it.
        var fieldPaths: [Int32: [String]?] = [:]
        var warnings: [Int32: [JSONValue]] = [:]
    }

    private(set) var committed = State()

    func transaction<T: Sendable>(_ body: (any PublishTransaction) async throws -> T) async throws -> T {
        let transaction = Transaction(state: committed)
        let value = try await body(transaction)
        committed = transaction.state
        return value
    }

    final class Transaction: PublishTransaction {
        var state: State
        private var claimedHashes: [ExactName: [UInt8]] = [:]

        init(state: State) { self.state = state }

        func claim(_ claim: IdempotencyClaim) async throws -> StoredResponse? {
            if let stored = state.keys[ExactName(claim.key)] { return stored }
            claimedHashes[ExactName(claim.key)] = claim.requestHash
            return nil
        }

        func insert(
            application: Application, attributesType: String, version: VersionRequest, jsonSchema: String, by actor: AuditActor,
            metadata: VersionMetadata, fieldPaths: [String]?, comparing comparison: Comparison
        ) async throws -> Publication {
            let number: Int32
            switch version {
            case .nextFree: number = state.counter + 1
            case .explicit(let explicit): number = explicit
            }
            guard !state.versions.contains(where: { $0.version == number }) else {
                throw RegistryError.alreadyExists("version \(number) exists")
            }
            state.counter = max(state.counter, number)
            state.fieldPaths[number] = .some(fieldPaths)
            let newest = state.versions.last.map {
                EarlierSchema(version: $0.version, contentHash: CanonicalJSON.contentHash($0.jsonSchema), jsonSchema: $0.jsonSchema)
            }
            let schema = SchemaVersion(
                applicationCode: application.code, attributesType: attributesType, version: number, jsonSchema: jsonSchema,
                created: "now", contentHash: CanonicalJSON.contentHash(jsonSchema))
            state.versions.append(schema)
            let policy = EffectivePolicy(policy: CompatibilityPolicy(mode: .backward, enforce: .warn), source: .builtIn)
            return Publication(schema: schema, basis: ComparisonBasis(policy: policy, newest: newest, earlier: [], limitReached: false))
        }

        func lockType(application: Application, attributesType: String) async throws -> LockedType {
            LockedType(isNew: state.counter == 0, newest: state.versions.last.map { ($0, CanonicalJSON.contentHash($0.jsonSchema)) })
        }

        func record(_ record: AuditRecord) async throws { state.audit.append(record) }

        func recordWarnings(_ warnings: [JSONValue], of schema: SchemaVersion, in application: Application) async throws {
            state.warnings[schema.version] = warnings
        }

        func recordResponse(_ body: [UInt8], under claim: IdempotencyClaim) async throws {
            guard let hash = claimedHashes[ExactName(claim.key)] else { throw RegistryError.internal("recorded an unclaimed key") }
            state.keys[ExactName(claim.key)] = StoredResponse(requestHash: hash, body: body)
        }
    }
}
