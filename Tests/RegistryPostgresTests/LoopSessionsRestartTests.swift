import EventLoop
import Foundation
import Registry
import Testing
import TestSupport

@testable import RegistryPostgres

/// A database restart, outage or crash costs reads on an event loop a few 503s, never a hang,
/// and the loop's sessions heal without the loop or the pool being recreated.
@Suite struct LoopSessionsRestartTests {
    @Test func readsFailFastWhileTheDatabaseIsStoppedAndWorkAfterItStarts() async throws {
        let cluster = try TestPostgres.start()
        defer { try? cluster.stop() }
        let f = try Fixture(cluster: cluster)
        let (store, code) = (f.store, f.application.code)
        let loop = try LoopThread()
        defer { loop.stop() }
        #expect(try loop.answer(of: Application?.self) { try await store.application(code: code) }.get() != nil)

        try cluster.stop()
        let started = ContinuousClock.now
        let results = loop.answers(20, of: Application?.self) { _ in try await store.application(code: code) }
        #expect(ContinuousClock.now - started < .seconds(10))
        for result in results { #expect(registryError(result) == .unavailable("database unavailable")) }
        #expect(f.pool.lastFailure?.kind == .connectionFailed)

        try cluster.start()
        #expect(try loop.answer(of: Application?.self) { try await store.application(code: code) }.get() == f.application)
    }

    @Test func theFirstReadsAfterARestartSucceed() async throws {
        let cluster = try TestPostgres.start()
        defer { try? cluster.stop() }
        let f = try Fixture(cluster: cluster)
        let (store, code) = (f.store, f.application.code)
        let loop = try LoopThread()
        defer { loop.stop() }
        #expect(try loop.answer(of: Application?.self) { try await store.application(code: code) }.get() != nil)

        try cluster.restart()
        // The session the restart ended is dropped, or its reads are retried on a fresh one.
        let results = loop.answers(20, of: Application?.self) { _ in try await store.application(code: code) }
        for result in results { #expect(try result.get() == f.application) }
        #expect(f.pool.loopStats.open == 1)
    }

    /// A backend killed with SIGKILL makes PostgreSQL end every session and recover; reads in
    /// flight then get an answer (their retry may meet the recovery: 503) and later reads work.
    @Test func aBackendKilledInFlightCostsAtMostUnavailableAndReadsRecover() throws {
        let cluster = try TestPostgres.start()
        defer { try? cluster.stop() }
        let f = try Fixture(cluster: cluster)
        let pool = LoopSessionsTests.pool(f)
        let loop = try LoopThread()
        defer { loop.stop() }
        let backend = try loop.answer(of: Int32.self) { pool.run(LoopSessionsTests.sleepRead(0), then: $0) }.get()

        let sleeping = loop.start(10, of: Int32.self) { _, done in pool.run(LoopSessionsTests.sleepRead(1), then: done) }
        Thread.sleep(forTimeInterval: 0.3)
        #expect(kill(pid_t(backend), SIGKILL) == 0)
        for result in sleeping.wait() {
            if case .failure = result { #expect(registryError(result) == .unavailable("database unavailable")) }
        }

        let recovered = waitUntil(timeoutSeconds: 60) {
            let answer = loop.answer(of: Int32.self) { pool.run(LoopSessionsTests.sleepRead(0), then: $0) }
            return (try? answer.get()).map { $0 != backend } ?? false
        }
        #expect(recovered)
    }
}
