import CCurl
import Foundation
import Registry

/// Webhook deliveries over libcurl (loaded on the first delivery, so `serve` needs libcurl only
/// once a subscription exists): connect and total timeouts, the answer's first bytes kept, no
/// redirects, no proxies, and every address libcurl connects to checked against the policy.
struct WebhookHTTPTransport: WebhookTransport {
    let policy: DestinationPolicy
    let connectTimeoutMilliseconds: Int
    let totalTimeoutMilliseconds: Int

    func post(url: String, headers: [(name: String, value: String)], body: [UInt8]) -> WebhookResponse {
        var response = ccurl_response()
        defer { ccurl_response_free(&response) }
        var options = ccurl_delivery_options(
            connect_timeout_ms: connectTimeoutMilliseconds, total_timeout_ms: totalTimeoutMilliseconds,
            max_kept: WebhookResponse.maxHeadBytes, allow_http: policy.allowHTTP ? 1 : 0, check: checkWebhookAddress,
            check_context: UnsafeMutableRawPointer(bitPattern: policy.allowPrivate ? 2 : 1))
        let lines = headers.map { "\($0.name): \($0.value)" }
        let copies = lines.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let result = copies.map { UnsafePointer($0) }.withUnsafeBufferPointer { pointers in
            body.withUnsafeBytes { bytes in
                ccurl_deliver(url, pointers.baseAddress, Int32(pointers.count), bytes.baseAddress, bytes.count, &options, &response)
            }
        }
        let head = response.body.map { [UInt8](UnsafeBufferPointer(start: $0, count: response.length)) } ?? []
        guard result == 0 else {
            let message = withUnsafeBytes(of: response.error) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
            return WebhookResponse(status: response.status, head: head, error: message)
        }
        return WebhookResponse(status: response.status, head: head)
    }
}

/// libcurl's address check: the context's bit pattern says whether private addresses are
/// allowed (2) or not (1); a C function cannot capture the policy.
private func checkWebhookAddress(length: Int32, address: UnsafePointer<UInt8>?, context: UnsafeMutableRawPointer?) -> Int32 {
    guard let address else { return 0 }
    let policy = DestinationPolicy(allowPrivate: Int(bitPattern: context) == 2)
    return policy.refusal(of: Array(UnsafeBufferPointer(start: address, count: Int(length)))) == nil ? 1 : 0
}
