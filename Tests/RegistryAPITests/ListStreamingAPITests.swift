import Foundation
import Registry
import Testing
import TestSupport

/// A list without `pageSize` is streamed in batches once it is longer than one batch, with
/// exactly the bytes a single-piece answer would have.
@Suite struct ListStreamingAPITests {
    @Test func aLongListIsStreamedWithTheSameBytesAsOnePage() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        let published = 60
        let results = onThreads(4) { worker in
            for index in stride(from: worker, to: published, by: 4) {
                let schema = #"{"type":"object","properties":{"f\#(index)":{"type":"string"}}}"#
                let response = try tenant.publish("Type\(index % 7)", schema)
                guard response.status == 200 else { throw RawHTTPError("publish \(index): \(response.status)") }
            }
        }
        for result in results { try result.get() }
        let streamed = try tenant.request("GET", "/api/live_activity_schemas?application=\(tenant.code)")
        let onePage = try tenant.request("GET", "/api/live_activity_schemas?application=\(tenant.code)&pageSize=1000")
        #expect(streamed.status == 200)
        #expect(streamed.header("transfer-encoding") == "chunked", "a list longer than one batch is streamed")
        #expect(onePage.header("transfer-encoding") == nil)
        #expect(streamed.body == onePage.body)
        #expect(try streamed.json()["schemas"]?.arrayValue?.count == published)
        let oneType = try tenant.request("GET", "/api/live_activity_schemas?application=\(tenant.code)&attributesType=Type3")
        let oneTypePage = try tenant.request(
            "GET", "/api/live_activity_schemas?application=\(tenant.code)&attributesType=Type3&pageSize=1000")
        #expect(oneType.body == oneTypePage.body)
    }

    @Test func aShortListIsOnePieceWithALength() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        #expect(try tenant.publish("Short", #"{"type":"object"}"#).status == 200)
        let response = try tenant.request("GET", "/api/live_activity_schemas?application=\(tenant.code)")
        #expect(response.header("content-length") != nil)
        #expect(try response.json()["schemas"]?.arrayValue?.count == 1)
    }
}
