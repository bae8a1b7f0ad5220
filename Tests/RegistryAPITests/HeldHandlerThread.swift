import Testing
import TestSupport

/// Runs `body` against a fresh registry with one handler thread, held by blocking work, with a
/// publish of `Held` waiting for that type's counter lock on the loop meanwhile; `prepare` runs
/// first, while the thread is free. Afterwards the thread and the lock are let go, and the
/// publish must finish (version 2): it waited holding neither.
func whileTheOnlyHandlerThreadIsHeld(prepare: (Tenant) throws -> Void, _ body: (Tenant) throws -> Void) throws {
    let registry = try TestRegistry(databaseURL: TestPostgres.shared.makeDatabase(), workers: 1)
    defer { registry.stop() }
    let tenant = try registry.makeTenant()
    #expect(try tenant.publish("Held", SchemaAPITests.flight).status == 200)
    try prepare(tenant)

    let threads = try registry.holdHandlerThreads(as: tenant)
    let held = try HeldCounter(databaseURL: registry.databaseURL, attributesType: "Held")
    let publish = Background { try tenant.publish("Held", SchemaAPITests.flight) }
    #expect(try held.waitingPublish() != nil, "the publish waits on the lock")
    do {
        try body(tenant)
    } catch {
        try held.release()
        try threads.release()
        throw error
    }

    try held.release()
    let finished = try publish.result()
    #expect(finished.status == 200, "\(finished.bodyText)")
    #expect(try finished.json()["schema"]?["version"] == 2)
    try threads.release()
}
