import Testing
import TestSupport

/// Runs `body` against a fresh registry with one handler thread, held by a publish of `Held`
/// waiting for that type's counter lock; `prepare` runs first, while the thread is free.
/// Afterwards the lock is let go, and the publish must finish (version 2).
func whileTheOnlyHandlerThreadIsHeld(prepare: (Tenant) throws -> Void, _ body: (Tenant) throws -> Void) throws {
    let registry = try TestRegistry(databaseURL: TestPostgres.shared.makeDatabase(), workers: 1)
    defer { registry.stop() }
    let tenant = try registry.makeTenant()
    #expect(try tenant.publish("Held", SchemaAPITests.flight).status == 200)
    try prepare(tenant)

    let held = try HeldCounter(databaseURL: registry.databaseURL, attributesType: "Held")
    let publish = Background { try tenant.publish("Held", SchemaAPITests.flight) }
    #expect(try held.waitingPublish() != nil, "the publish holds the only handler thread, waiting on the lock")
    do {
        try body(tenant)
    } catch {
        try held.release()
        throw error
    }

    try held.release()
    let finished = try publish.result()
    #expect(finished.status == 200, "\(finished.bodyText)")
    #expect(try finished.json()["schema"]?["version"] == 2)
}
