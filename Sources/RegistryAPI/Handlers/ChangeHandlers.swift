import HTTPServer
import Registry

/// `GET /api/changes`: an application's change feed. Without `after` it starts at the
/// beginning; `after=now` starts at the present; otherwise after a cursor from an earlier
/// answer. With `wait=N` and nothing new, the request parks (no thread, no database
/// connection) until a change of the application commits on any replica or N seconds pass.
/// Every read of the feed (the present, a page, again at each wake) runs on the event loop
/// without a thread waiting.
enum ChangeHandlers {
    static let maxWaitSeconds = 60
    static let defaultPageSize = 100
    static let maxPageSize = 1000
    /// Committed events held back by an older transaction still running are looked for again
    /// after this long: that transaction's end sends no notification when it changed nothing.
    static let pendingRetry = Duration.milliseconds(100)
    /// The waiting-room key of an application's changes: `feed|<application id>`, woken by
    /// `RegistryAPI.apply` when the replica reads the application's change from the feed.
    static let wakeKeyPrefix = "feed|"

    static func changes(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let code = try call.query.requiredString(.application)
        let after = try call.query.string(.after) ?? ""
        let waitSeconds = try integer(call.query.string(.wait), .wait, range: 0...maxWaitSeconds, default: 0)
        let pageSize = try integer(call.query.string(.pageSize), .pageSize, range: 1...maxPageSize, default: defaultPageSize)
        let requested: ChangeCursor? = after.isEmpty || after == "now" ? nil : try ChangeCursorToken.decode(after)
        let application = try await call.application(code: code)
        // Past the waiting budget, refused before the first read: a flood of waiters costs no
        // database work, only their answers.
        if waitSeconds > 0, !call.waitingRoom.hasSeat(for: call.request) { return waitingRefusal }
        let cursor: ChangeCursor
        if let requested {
            cursor = requested
        } else if after == "now" {
            cursor = try await call.read { try await $0.currentChangeCursor() }
        } else {
            cursor = .start
        }
        let reader = Reader(call: call, application: application, cursor: cursor, pageSize: pageSize, deadline: .now + .seconds(waitSeconds))
        return try await reader.answer()
    }

    /// One waiting reader.
    private struct Reader: Sendable {
        let call: Call
        let application: Application
        let cursor: ChangeCursor
        let pageSize: Int
        let deadline: ContinuousClock.Instant

        var key: String { "\(wakeKeyPrefix)\(application.id)" }

        /// The events after the cursor, waiting for them (holding no thread) while there are
        /// none yet and the deadline is ahead. The ticket is taken before each read, so a change
        /// committing between the read and the wait ends the wait at once.
        func answer() async throws(RegistryError) -> HTTPResponse {
            var firstTime = true
            while true {
                let ticket = call.waitingRoom.ticket(key)
                let page = try await read()
                let now = ContinuousClock.now
                guard page.events.isEmpty, now < deadline else { return response(page) }
                let wakeAt = page.pending ? min(deadline, now + pendingRetry) : deadline
                switch await call.wait(ticket, until: wakeAt) {
                case .notified, .deadline:
                    firstTime = false
                case .full where firstTime:
                    return waitingRefusal
                case .full:
                    var answer = response(try await read())
                    answer.closesConnection = true
                    return answer
                case .answerNow:
                    return response(try await read())
                }
            }
        }

        /// The page after the cursor, read on the loop.
        private func read() async throws(RegistryError) -> ChangePage {
            try await call.read { [application, cursor, pageSize] in
                try await $0.changes(application: application, after: cursor, limit: pageSize)
            }
        }

        func response(_ page: ChangePage) -> HTTPResponse {
            let next = page.events.last?.cursor ?? cursor
            let events: [JSONValue] = page.events.map { event in
                [
                    "kind": .string(event.kind.rawValue),
                    "attributes_type": event.attributesType.map(JSONValue.string) ?? .null,
                    "version": event.version.map { .number(String($0)) } ?? .null,
                    "at": .string(event.at),
                ]
            }
            return JSONResponse.make([
                "events": .array(events), "cursor": .string(ChangeCursorToken.encode(next)), "more": .bool(page.more),
            ])
        }
    }

    /// Refused before it waits, when the waiting budget (in all, for the client's address, or
    /// on its connection's event loop) is spent.
    static let tooManyWaiting = RegistryError.unavailable(
        "wait: too many requests are waiting for changes, in all or from this address; retry shortly", retryAfterSeconds: 1)

    /// The refusal closes the connection: the budget is there to keep connections free.
    static var waitingRefusal: HTTPResponse {
        var response = ErrorResponse.make(tooManyWaiting)
        response.closesConnection = true
        return response
    }

    /// An optional integer query parameter within `range`.
    private static func integer(_ text: String?, _ field: FieldName, range: ClosedRange<Int>, default value: Int)
        throws(RegistryError) -> Int
    {
        guard let text, !text.isEmpty else { return value }
        guard text.utf8.count <= 10, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = Int(text), range.contains(number)
        else {
            throw .invalidArgument("\(field.camel): must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}
