/// Per-request state kept behind MHD's `*con_cls` between the access-handler calls of one
/// request (headers, body chunks, end). Only the daemon thread that owns the connection
/// touches it, one call at a time.
final class RequestState {
    /// The request as received so far (body empty), or why it must be rejected.
    let head: Result<HTTPRequest, InvalidRequest>
    let declaredContentLength: UInt64?
    let maxBodyBytes: Int
    private(set) var body: [UInt8] = []
    /// Once set, further chunks are discarded: an oversized body is never held in memory.
    private(set) var bodyTooLarge = false
    /// Set once a response is queued, so that a stray later call cannot answer twice.
    var answered = false

    struct InvalidRequest: Error {
        let reason: String
    }

    init(head: Result<HTTPRequest, InvalidRequest>, declaredContentLength: UInt64?, maxBodyBytes: Int) {
        self.head = head
        self.declaredContentLength = declaredContentLength
        self.maxBodyBytes = maxBodyBytes
    }

    /// True when the declared length alone already exceeds the limit, so the request can be
    /// refused before a single body byte is read.
    var declaredBodyTooLarge: Bool {
        guard let declaredContentLength else { return false }
        return declaredContentLength > UInt64(maxBodyBytes)
    }

    func appendBody(_ chunk: UnsafeRawBufferPointer) {
        guard !bodyTooLarge else { return }
        guard chunk.count <= maxBodyBytes - body.count else {
            bodyTooLarge = true
            body = []
            return
        }
        // Invalid requests are answered without their body, so do not keep it either.
        guard case .success = head else { return }
        if body.isEmpty, let declaredContentLength {
            // Avoid doubling growth overshooting the limit when the size is known up front.
            body.reserveCapacity(Int(min(declaredContentLength, UInt64(maxBodyBytes))))
        }
        body.append(contentsOf: chunk)
    }

    /// The complete request for the handler, or the rejection to answer instead.
    func finish() -> Outcome {
        switch head {
        case .failure(let invalid):
            return .reject(.invalidRequestTarget(invalid.reason))
        case .success(var request):
            if bodyTooLarge { return .reject(.bodyTooLarge(limit: maxBodyBytes)) }
            request.body = body
            return .handle(request)
        }
    }

    enum Outcome {
        case handle(HTTPRequest)
        case reject(HTTPRejection)
    }
}
