import CMicroHTTPD
import Testing

@testable import HTTPServer

/// A body goes to libmicrohttpd from its own storage: a cached body sent by any number of
/// responses is one block of memory, alive exactly as long as some response still sends it.
@Suite struct SharedBodyTests {
    @Test func aBodySentManyTimesIsHandedOverFromItsOwnStorageEveryTime() {
        let cached = [UInt8](repeating: 7, count: 100_000)
        let storage = cached.withUnsafeBytes { $0.baseAddress }
        for _ in 0..<100 {
            let owner = SharedBody(cached)
            #expect(owner.address == storage, "the body was copied")
        }
    }

    @Test func theResponseKeepsTheBodyUntilLibmicrohttpdDestroysIt() throws {
        weak var owner: SharedBody?
        let response: OpaquePointer = try {
            let body = SharedBody([UInt8](repeating: 1, count: 64))
            owner = body
            let retained = Unmanaged.passRetained(body).toOpaque()
            return try #require(
                MHD_create_response_from_buffer_with_free_callback_cls(
                    64, UnsafeMutableRawPointer(mutating: body.address), SharedBody.release, retained))
        }()
        #expect(owner != nil, "released while MHD may still send it")
        MHD_destroy_response(response)
        #expect(owner == nil, "never released: every response would leak its body")
    }

    @Test func everyResponseReleasesItsBody() throws {
        for body in [[UInt8](), [1, 2, 3]] {
            let response = try #require(SharedBody.response(body))
            MHD_destroy_response(response)
        }
    }
}
