import Registry
import Testing

@Suite struct FeedSnapshotTests {
    @Test func readsPostgresTextAndSeesWhatHadCommitted() throws {
        let snapshot = try #require(FeedSnapshot(text: "10:20:12,14"))
        #expect(snapshot == FeedSnapshot(xmin: 10, xmax: 20, running: [12, 14]))
        #expect(snapshot.sees(9) && snapshot.sees(10) && snapshot.sees(13) && snapshot.sees(19))
        #expect(!snapshot.sees(12) && !snapshot.sees(14) && !snapshot.sees(20) && !snapshot.sees(21))
        #expect(FeedSnapshot(text: "724:724:") == FeedSnapshot(xmin: 724, xmax: 724, running: []))
    }

    @Test(arguments: ["", "1:2", "1:2:3:4", "2:1:", "a:2:", "1:2:5", "1:5:0", "1:5:2,", "1:5:+2", "-1:5:", " 1:5:", "1:18446744073709551616:"])
    func refusesAnythingElse(_ text: String) {
        #expect(FeedSnapshot(text: text) == nil)
    }
}
