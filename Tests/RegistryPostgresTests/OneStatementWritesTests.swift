import Foundation
import Registry
import RegistryPostgres
import Synchronization
import Testing
import TestSupport

/// The writes that are one statement each (deleting a version, setting and removing a
/// compatibility policy) record their audit event in that statement: both commit or neither
/// does, whether the statement blocks a pooled session or is pipelined on an event loop's.
@Suite struct OneStatementWritesTests {
    /// Where the write runs: blocking on the calling thread, or started on an event loop.
    enum Path: String, CaseIterable, CustomTestStringConvertible {
        case blocking, loop
        var testDescription: String { rawValue }
    }

    /// One write of the table: what it needs first, the write itself, and whether its change is
    /// in the store.
    struct Write: Sendable, CustomTestStringConvertible {
        let name: String
        let action: AuditAction
        let prepare: @Sendable (Fixture) throws -> Void
        let perform: @Sendable (Fixture, AuditActor, @escaping @Sendable (Result<Bool, any Error>) -> Void) -> Void
        let isApplied: @Sendable (Fixture) throws -> Bool
        var testDescription: String { name }
    }

    static let strict = CompatibilityPolicy(mode: .backward, enforce: .reject)

    static let writes: [Write] = [
        Write(
            name: "delete a version", action: .delete,
            prepare: { try $0.publish("Gone") },
            perform: { f, actor, done in f.store.delete(application: f.application, attributesType: "Gone", version: 1, by: actor, then: done) },
            isApplied: { f in try f.store.schema(application: f.application, attributesType: "Gone", version: 1) == nil }),
        Write(
            name: "set a type's policy", action: .policyChange,
            prepare: { _ in },
            perform: { f, actor, done in
                f.store.setCompatibilityPolicy(application: f.application, attributesType: "Ruled", to: strict, by: actor) {
                    done($0.map { $0.source == .type })
                }
            },
            isApplied: { f in try f.store.compatibilityPolicy(application: f.application, attributesType: "Ruled").source == .type }),
        Write(
            name: "remove the application's policy", action: .policyChange,
            prepare: { f in _ = try f.store.setCompatibilityPolicy(application: f.application, attributesType: nil, to: strict, by: .cli) },
            perform: { f, actor, done in f.store.removeCompatibilityPolicy(application: f.application, attributesType: nil, by: actor, then: done) },
            isApplied: { f in try f.store.compatibilityPolicy(application: f.application, attributesType: nil).source == .builtIn }),
    ]

    @Test(arguments: writes, Path.allCases)
    func theChangeAndItsEventCommitTogether(write: Write, path: Path) throws {
        let f = try Fixture()
        try write.prepare(f)
        let before = try Self.events(f, write.action)
        let actor = AuditActor(kind: .token, tokenID: nil, tokenName: "ci", requestID: "req-1")
        #expect(try Self.run(write, f, actor, path).get() == true)
        #expect(try write.isApplied(f))
        let after = try Self.events(f, write.action)
        #expect(after.count == before.count + 1)
        #expect(after.first?.requestID == "req-1" && after.first?.tokenName == "ci")
    }

    /// A request id over the audit trail's 200-byte check fails the event's insert: the
    /// statement fails as a whole, so the change is not made either.
    @Test(arguments: writes, Path.allCases)
    func aFailingEventUndoesTheChange(write: Write, path: Path) throws {
        let f = try Fixture()
        try write.prepare(f)
        let before = try Self.events(f, write.action)
        let actor = AuditActor(kind: .token, tokenID: nil, tokenName: "ci", requestID: String(repeating: "r", count: 201))
        #expect(throws: RegistryError.self) { try Self.run(write, f, actor, path).get() }
        #expect(try !write.isApplied(f))
        #expect(try Self.events(f, write.action).count == before.count)
    }

    @Test(arguments: Path.allCases)
    func aWriteThatFindsNothingRecordsNothing(path: Path) throws {
        let f = try Fixture()
        let before = try Self.events(f, nil).count
        let deleteUnknown = Write(
            name: "", action: .delete, prepare: { _ in },
            perform: { f, actor, done in f.store.delete(application: f.application, attributesType: "Never", version: 3, by: actor, then: done) },
            isApplied: { _ in false })
        let removeUnset = Write(
            name: "", action: .policyChange, prepare: { _ in },
            perform: { f, actor, done in f.store.removeCompatibilityPolicy(application: f.application, attributesType: "Unset", by: actor, then: done) },
            isApplied: { _ in false })
        for write in [deleteUnknown, removeUnset] {
            #expect(try Self.run(write, f, .cli, path).get() == false)
        }
        #expect(try Self.events(f, nil).count == before)
    }

    private static func run(_ write: Write, _ f: Fixture, _ actor: AuditActor, _ path: Path) -> Result<Bool, any Error> {
        switch path {
        case .blocking:
            let answer = Answer()
            write.perform(f, actor) { answer.set($0) }
            return answer.get()
        case .loop:
            do {
                let thread = try LoopThread()
                defer { thread.stop() }
                return thread.answer(of: Bool.self) { done in write.perform(f, actor, done) }
            } catch {
                return .failure(error)
            }
        }
    }

    /// The application's audit events of `action` (all of them when nil), newest first.
    private static func events(_ f: Fixture, _ action: AuditAction?) throws -> [AuditEvent] {
        try f.store.auditEvents(AuditQuery(order: .newestFirst, applicationID: f.application.id, action: action, limit: 100))
    }
}

/// A blocking call's answer, given before the call returns.
private final class Answer: Sendable {
    private let result = Mutex<Result<Bool, any Error>?>(nil)
    func set(_ answer: Result<Bool, any Error>) { result.withLock { $0 = answer } }
    func get() -> Result<Bool, any Error> { result.withLock { $0 } ?? .failure(RegistryError.internal("no answer before returning")) }
}
