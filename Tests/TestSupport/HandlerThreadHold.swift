import Dispatch
import HTTPServer
import Synchronization

/// Holds a test server's handler threads with blocking work, as a slow review or a blocking
/// call would: what still answers meanwhile needs none. A request to `path` takes one thread
/// until `release`; the test registry routes it here before the API.
public final class HandlerThreadHold: Sendable {
    public static let path = "/test/hold-a-handler-thread"

    private let gate = DispatchSemaphore(value: 0)
    private let held = Atomic<Int>(0)

    /// Answers a hold request once its handler thread is let go; 503 when the server takes no
    /// more work.
    func respond(_ request: HTTPRequest) async -> HTTPResponse {
        guard let services = request.services else { return HTTPResponse(status: 503, headers: [], body: []) }
        let ran = await services.work { [self] in
            held.add(1, ordering: .sequentiallyConsistent)
            gate.wait()
            held.subtract(1, ordering: .sequentiallyConsistent)
            return true
        }
        return HTTPResponse(status: ran == true ? 200 : 503, headers: [], body: [])
    }

    /// Holds `count` handler threads (every one the server has), returning once all are held;
    /// `release` lets them go and checks each hold was answered.
    public func hold(_ count: Int, of tenant: Tenant) throws -> Held {
        let requests = (0..<count).map { _ in Background { try tenant.request("GET", Self.path, token: .none) } }
        guard waitUntil(timeoutSeconds: 10, { self.held.load(ordering: .sequentiallyConsistent) == count }) else {
            for _ in 0..<count { gate.signal() }
            throw RawHTTPError("the handler threads were not all held within 10 s")
        }
        return Held(hold: self, requests: requests)
    }

    public struct Held {
        fileprivate let hold: HandlerThreadHold
        fileprivate let requests: [Background<RawHTTPResponse>]

        /// Lets every held thread go; each hold request must then be answered 200.
        public func release() throws {
            for _ in requests { hold.gate.signal() }
            for request in requests {
                let answer = try request.result()
                guard answer.status == 200 else { throw RawHTTPError("a hold was answered \(answer.status)") }
            }
        }
    }
}
