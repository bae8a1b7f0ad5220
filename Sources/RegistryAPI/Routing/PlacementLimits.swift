/// Every threshold that decides where a request's work runs and how much of it may wait, in
/// one place. The per-deployment ones (heavy requests at once, handler threads, waiting
/// requests) are settings; these are sizes measured once and fixed.
enum PlacementLimits {
    /// A publish, dry run, check, preview or uncached form of a schema text (or a check body)
    /// at least this long is CPU-heavy: parsing, outlining and rendering it take milliseconds,
    /// and earlier versions of a type are usually about as large as its new one. It runs on a
    /// handler thread holding a heavy-work permit.
    static let heavyTextBytes = 16 << 10

    /// How long a request may wait for a heavy-work permit before it is answered 503.
    static let heavyWaitSeconds = 5.0

    /// `serve`'s queue for heavy-work permits, as long as an event loop's queue of statements
    /// waiting for a session: a waiting request holds no thread, and the connection limits
    /// bound what it holds (a shorter queue would turn waits into 503s).
    static let waitingHeavyRequests = 1024

    /// Pages of up to this many rows, and a long list's first batch, are read on the event
    /// loop as they come. Longer pages, and the whole type index, also are, but each holds one
    /// of `concurrentLongPages` turns while read and written: a loop keeps many reads in flight
    /// at once, and that many pages of 1,000 texts would not fit in memory.
    static let loopPageRows = SchemaListStream.firstBatchRows + 1

    /// Long pages read and written at once. Each holds its rows about three times over while
    /// written (database result, strings, body): some 1.5 MB for a page of 100 typical texts,
    /// so this bounds that memory while still keeping the database and a core per page busy.
    static let concurrentLongPages = 4

    /// Long-page requests that may wait for a turn; each holds only its suspended connection.
    static let waitingLongPages = 256

    /// Texts up to this size in all are written into a list on the event loop, as a version's
    /// body is; a larger page (up to 1,000 texts of 64 KB) is written on a handler thread, so
    /// that it never holds up the loop's other connections.
    static let listBytesOnTheLoop = 256 << 10
}
