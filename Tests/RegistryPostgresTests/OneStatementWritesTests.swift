import Foundation
import Registry
import RegistryPostgres
import Testing
import TestSupport

/// The writes that are one statement each (deleting a version, setting and removing a
/// compatibility policy) record their audit event in that statement: both commit or neither
/// does, whether the statement blocks a pooled session or is pipelined on an event loop's.
@Suite struct OneStatementWritesTests {
    /// Where the write is awaited: off any loop (blocking a pooled session), or on an event loop.
    enum Path: String, CaseIterable, CustomTestStringConvertible {
        case blocking, loop
        var testDescription: String { rawValue }
    }

    /// One write of the table: what it needs first, the write itself, and whether its change is
    /// in the store.
    struct Write: Sendable, CustomTestStringConvertible {
        let name: String
        let action: AuditAction
        let prepare: @Sendable (Fixture) async throws -> Void
        let perform: @Sendable (Fixture, AuditActor) async throws -> Bool
        let isApplied: @Sendable (Fixture) async throws -> Bool
        var testDescription: String { name }
    }

    static let strict = CompatibilityPolicy(mode: .backward, enforce: .reject)

    static let writes: [Write] = [
        Write(
            name: "delete a version", action: .delete,
            prepare: { try await $0.publish("Gone") },
            perform: { f, actor in try await f.store.delete(application: f.application, attributesType: "Gone", version: 1, by: actor) },
            isApplied: { f in try await f.store.schema(application: f.application, attributesType: "Gone", version: 1) == nil }),
        Write(
            name: "set a type's policy", action: .policyChange,
            prepare: { _ in },
            perform: { f, actor in
                try await f.store.setCompatibilityPolicy(application: f.application, attributesType: "Ruled", to: strict, by: actor).source == .type
            },
            isApplied: { f in try await f.store.compatibilityPolicy(application: f.application, attributesType: "Ruled").source == .type }),
        Write(
            name: "remove the application's policy", action: .policyChange,
            prepare: { f in _ = try await f.store.setCompatibilityPolicy(application: f.application, attributesType: nil, to: strict, by: .cli) },
            perform: { f, actor in try await f.store.removeCompatibilityPolicy(application: f.application, attributesType: nil, by: actor) },
            isApplied: { f in try await f.store.compatibilityPolicy(application: f.application, attributesType: nil).source == .builtIn }),
    ]

    @Test(arguments: writes, Path.allCases)
    func theChangeAndItsEventCommitTogether(write: Write, path: Path) async throws {
        let f = try Fixture()
        try await write.prepare(f)
        let before = try await Self.events(f, write.action)
        let actor = AuditActor(kind: .token, tokenID: nil, tokenName: "ci", requestID: "req-1")
        #expect(try await Self.run(write, f, actor, path).get() == true)
        #expect(try await write.isApplied(f))
        let after = try await Self.events(f, write.action)
        #expect(after.count == before.count + 1)
        #expect(after.first?.requestID == "req-1" && after.first?.tokenName == "ci")
    }

    /// A request id over the audit trail's 200-byte check fails the event's insert: the
    /// statement fails as a whole, so the change is not made either.
    @Test(arguments: writes, Path.allCases)
    func aFailingEventUndoesTheChange(write: Write, path: Path) async throws {
        let f = try Fixture()
        try await write.prepare(f)
        let before = try await Self.events(f, write.action)
        let actor = AuditActor(kind: .token, tokenID: nil, tokenName: "ci", requestID: String(repeating: "r", count: 201))
        let result = await Self.run(write, f, actor, path)
        #expect(throws: RegistryError.self) { try result.get() }
        #expect(try await !write.isApplied(f))
        #expect(try await Self.events(f, write.action).count == before.count)
    }

    @Test(arguments: Path.allCases)
    func aWriteThatFindsNothingRecordsNothing(path: Path) async throws {
        let f = try Fixture()
        let before = try await Self.events(f, nil).count
        let deleteUnknown = Write(
            name: "", action: .delete, prepare: { _ in },
            perform: { f, actor in try await f.store.delete(application: f.application, attributesType: "Never", version: 3, by: actor) },
            isApplied: { _ in false })
        let removeUnset = Write(
            name: "", action: .policyChange, prepare: { _ in },
            perform: { f, actor in try await f.store.removeCompatibilityPolicy(application: f.application, attributesType: "Unset", by: actor) },
            isApplied: { _ in false })
        for write in [deleteUnknown, removeUnset] {
            #expect(try await Self.run(write, f, .cli, path).get() == false)
        }
        #expect(try await Self.events(f, nil).count == before)
    }

    private static func run(_ write: Write, _ f: Fixture, _ actor: AuditActor, _ path: Path) async -> Result<Bool, any Error> {
        do {
            switch path {
            case .blocking:
                return .success(try await write.perform(f, actor))
            case .loop:
                let thread = try LoopThread()
                defer { thread.stop() }
                return thread.answer(of: Bool.self) { try await write.perform(f, actor) }
            }
        } catch {
            return .failure(error)
        }
    }

    /// The application's audit events of `action` (all of them when nil), newest first.
    private static func events(_ f: Fixture, _ action: AuditAction?) async throws -> [AuditEvent] {
        try await f.store.auditEvents(AuditQuery(order: .newestFirst, applicationID: f.application.id, action: action, limit: 100))
    }
}
