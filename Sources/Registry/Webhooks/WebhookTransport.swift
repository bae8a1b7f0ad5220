/// Sends one webhook request. The service's is libcurl on the delivery threads; tests pass
/// their own. Never follows redirects, and refuses to connect where `DestinationPolicy` refuses.
public protocol WebhookTransport: Sendable {
    func post(url: String, headers: [(name: String, value: String)], body: [UInt8]) -> WebhookResponse
}

/// What one attempt got back.
public struct WebhookResponse: Sendable, Equatable {
    /// The HTTP status; 0 when no response arrived.
    public let status: Int
    /// The first bytes of the body (`maxHeadBytes` at most).
    public let head: [UInt8]
    /// Why no usable response arrived (refused destination, timeout, reset), when so.
    public let error: String?

    public init(status: Int, head: [UInt8] = [], error: String? = nil) {
        self.status = status
        self.head = head
        self.error = error
    }

    /// Bytes of a receiver's answer kept in the delivery log.
    public static let maxHeadBytes = 256

    public var succeeded: Bool { error == nil && (200...299).contains(status) }

    /// 410 Gone: the receiver says the endpoint is no more; retrying would only repeat it.
    public var receiverGone: Bool { error == nil && status == 410 }

    /// The log's error text: the transport's reason, or what the status means here.
    public var failure: String? {
        if let error { return error }
        switch status {
        case 200...299: return nil
        case 300...399: return "redirects are not followed (status \(status))"
        default: return "status \(status)"
        }
    }
}
