import Testing
import TestSupport

/// Long reads (a streamed list's later batches, a page longer than a first batch, the whole
/// type index) await the store on the event loop like short ones: they hold a long-page turn,
/// not a handler thread, so they are answered while every handler thread is held.
@Suite struct LongReadsOnTheLoopTests {
    @Test func longListsPagesAndTheTypeIndexAreAnsweredWhileEveryHandlerThreadIsHeld() throws {
        let versions = 40
        try whileTheOnlyHandlerThreadIsHeld(prepare: { tenant throws in
            for index in 0..<versions {
                let schema = #"{"type":"object","properties":{"f\#(index)":{"type":"string"}}}"#
                #expect(try tenant.publish("Long", schema).status == 200)
            }
        }) { tenant in
            let streamed = try tenant.request("GET", "/api/live_activity_schemas?application=\(tenant.code)")
            #expect(streamed.status == 200, "\(streamed.bodyText)")
            #expect(streamed.header("transfer-encoding") == "chunked", "longer than one batch, so streamed")
            #expect(try streamed.json()["schemas"]?.arrayValue?.count == versions + 1)

            let longPage = try tenant.request("GET", "/api/live_activity_schemas?application=\(tenant.code)&pageSize=100")
            #expect(longPage.status == 200, "\(longPage.bodyText)")
            #expect(longPage.body == streamed.body, "the same rows as the stream, in one piece")

            let index = try tenant.request("GET", "/api/live_activity_types?application=\(tenant.code)")
            #expect(index.status == 200, "\(index.bodyText)")
            #expect(try index.json()["types"]?.arrayValue?.count == 2)
        }
    }
}
