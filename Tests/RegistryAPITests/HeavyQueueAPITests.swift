import Foundation
import Registry
import Testing
import TestSupport

@testable import RegistryAPI

/// A large publish that finds every heavy-work permit taken waits in the gate's queue without a
/// handler thread, so the other handler threads stay free; it takes the permit of the publish
/// that ends.
@Suite struct HeavyQueueAPITests {
    /// A schema past `PlacementLimits.heavyTextBytes`, so its publish needs a permit.
    static let large =
        #"{"type":"object","description":"\#(String(repeating: "x", count: PlacementLimits.heavyTextBytes))","properties":{"gate":{"type":"string"}}}"#

    @Test func aQueuedLargePublishHoldsNoHandlerThread() throws {
        let registry = try TestRegistry(
            databaseURL: TestPostgres.shared.makeDatabase(), workers: 2,
            reviewing: ReviewSettings(concurrentHeavyRequests: 1, waitingHeavyRequests: 4))
        defer { registry.stop() }
        let tenant = try registry.makeTenant()
        #expect(try tenant.publish("Held", SchemaAPITests.flight).status == 200)

        // The permit's holder: a large publish stopped inside its transaction, on one thread.
        let held = try HeldCounter(databaseURL: registry.databaseURL, attributesType: "Held")
        let holder = Background { try tenant.publish("Held", Self.large) }
        #expect(try held.waitingPublish() != nil, "the large publish holds the permit, waiting on the lock")
        // Queued: no permit is free.
        let queued = Background { try tenant.publish("Queued", Self.large) }
        #expect(waitUntil(timeoutSeconds: 10) { registry.api.heavyRequestsWaiting == 1 })

        // The other handler thread is free: a small dry run answers while the queued publish
        // still waits (it would take that thread while waiting otherwise).
        let validate = try tenant.post(
            ["application": .string(tenant.code), "attributesType": "Small", "jsonSchema": .string(SchemaAPITests.flight)],
            path: "/api/live_activity_schemas:validate")
        #expect(validate.status == 200, "\(validate.bodyText)")
        #expect(registry.api.heavyRequestsWaiting == 1, "the queued publish is still waiting")

        try held.release()
        #expect(try holder.result().status == 200)
        let second = try queued.result()
        #expect(second.status == 200, "it ran with the permit the first one handed over: \(second.bodyText)")
        #expect(registry.api.heavyRequestsWaiting == 0)
    }
}
