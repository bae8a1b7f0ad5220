import HTTPServer
import Registry
import Synchronization

/// A list without `pageSize` (everything, possibly hundreds of MB) read from the store in
/// keyset batches and sent as each batch is rendered, so memory stays at one batch however
/// large the list or slow the reader. The bytes are exactly those of `SchemaJSON.listBody`.
///
/// Each batch is its own query: the list is not one snapshot, just as pages are not; a version
/// deleted while the list is sent may or may not appear in it.
final class SchemaListStream: HTTPBodyStream {
    /// Rows read before deciding: a list this short is answered in one piece, as it always was.
    /// Small, because schemas may be 64 KB each and a reader that never reads still holds it.
    static let firstBatchRows = 16
    /// Later batches aim at this many bytes, sized from the rows seen so far.
    static let batchBytes = PlacementLimits.listBytesOnTheLoop

    private struct Position: Sendable {
        var cursor: ListCursor
        var rows: Int
        var done = false
    }

    private let store: Storage
    private let application: Application
    private let attributesType: String?
    private let includingDisabled: Bool
    private let position: Mutex<Position>

    private init(store: Storage, application: Application, attributesType: String?, includingDisabled: Bool, position: Position) {
        self.store = store
        self.application = application
        self.attributesType = attributesType
        self.includingDisabled = includingDisabled
        self.position = Mutex(position)
    }

    /// The list response: the first batch is read on the loop; a short list is then answered
    /// in one piece, a longer one with the rest streamed batch by batch.
    static func respond(
        _ call: Call, application: Application, attributesType: String?, after cursor: ListCursor?, includingDisabled: Bool
    ) async throws(RegistryError) -> HTTPResponse {
        let rows = try await call.read {
            try await $0.list(
                application: application, attributesType: attributesType, after: cursor, limit: firstBatchRows + 1,
                includingDisabled: includingDisabled)
        }
        return try await SchemaHandlers.rendering(call, rows) {
            response(call, application: application, attributesType: attributesType, includingDisabled: includingDisabled, firstRows: rows)
        }
    }

    private static func response(
        _ call: Call, application: Application, attributesType: String?, includingDisabled: Bool, firstRows: [SchemaVersion]
    ) -> HTTPResponse {
        let headers = [("Content-Type", "application/json")]
        var rows = firstRows
        guard rows.count > firstBatchRows else {
            return HTTPResponse(status: 200, headers: headers, body: SchemaJSON.listBody(rows, nextPageToken: nil))
        }
        rows.removeLast()
        var first = Array(#"{"schemas":["#.utf8)
        append(rows, to: &first, leadingComma: false)
        let last = rows[rows.count - 1]
        let stream = SchemaListStream(
            store: call.store, application: application, attributesType: attributesType, includingDisabled: includingDisabled,
            position: Position(cursor: ListCursor(attributesType: last.attributesType, version: last.version),
                               rows: batchRows(afterRendering: first.count, rows: rows.count)))
        return HTTPResponse(status: 200, headers: headers, body: first, rest: stream)
    }

    /// The next batch, read on the connection's loop; rendered there too, since a batch aims at
    /// `batchBytes`, the size of texts a loop writes (`PlacementLimits.listBytesOnTheLoop`).
    func next() async throws -> [UInt8]? {
        var position = self.position.withLock { $0 }
        guard !position.done else { return nil }
        let rows = try await store.value { [application, attributesType, includingDisabled, position] in
            try await $0.list(
                application: application, attributesType: attributesType, after: position.cursor, limit: position.rows,
                includingDisabled: includingDisabled)
        }
        var out: [UInt8] = []
        Self.append(rows, to: &out, leadingComma: true)
        if rows.count < position.rows {
            out.append(contentsOf: "]}\n".utf8)
            position.done = true
        } else if let last = rows.last {
            position.cursor = ListCursor(attributesType: last.attributesType, version: last.version)
            position.rows = Self.batchRows(afterRendering: out.count, rows: rows.count)
        }
        let updated = position
        self.position.withLock { $0 = updated }
        return out
    }

    private static func append(_ rows: [SchemaVersion], to out: inout [UInt8], leadingComma: Bool) {
        for (index, row) in rows.enumerated() {
            if index > 0 || leadingComma { out.append(UInt8(ascii: ",")) }
            SchemaJSON.write(row, into: &out)
        }
    }

    /// Rows for the next batch so that it renders to about `batchBytes`.
    private static func batchRows(afterRendering bytes: Int, rows: Int) -> Int {
        let perRow = max(1, bytes / max(1, rows))
        return min(1000, max(8, batchBytes / perRow))
    }
}
