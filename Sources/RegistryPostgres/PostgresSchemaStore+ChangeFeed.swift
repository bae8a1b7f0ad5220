import Registry

/// The change feed (table `change_events`). Event ids and transaction ids are both allocated
/// before commit, so a later event can commit first. An event is handed out only when its
/// transaction is older than the feed's horizon, the oldest transaction that may still write
/// this database's events (`registry_feed_horizon()`): nothing can be added before it any
/// more, so a reader following (xid, id) skips nothing.
///
/// Both reads are one statement each: blocking on a pooled session, or without a thread
/// waiting on the caller's event loop (`NonBlockingFeed`), with the same SQL and decoding.
extension PostgresSchemaStore {
    public func changes(application: Application, after cursor: ChangeCursor, limit: Int) throws -> ChangePage {
        try pool.run(Self.changesRead(application: application, after: cursor, limit: limit))
    }

    public func currentChangeCursor() throws -> ChangeCursor {
        try pool.run(Self.horizonRead())
    }

    public func changes(
        application: Application, after cursor: ChangeCursor, limit: Int,
        then done: @escaping @Sendable (Result<ChangePage, any Error>) -> Void
    ) {
        pool.run(Self.changesRead(application: application, after: cursor, limit: limit), then: done)
    }

    public func currentChangeCursor(then done: @escaping @Sendable (Result<ChangeCursor, any Error>) -> Void) {
        pool.run(Self.horizonRead(), then: done)
    }

    /// One more row than `limit` is read, to tell a full page; rows at or past the horizon only
    /// say that more is on its way (`pending`).
    static func changesRead(application: Application, after cursor: ChangeCursor, limit: Int) -> StoreStatement<ChangePage> {
        let limit = max(1, limit)
        return StoreStatement(statement: changesAfter, parameters: [application.id, String(cursor.xid), cursor.id, limit + 1]) {
            result in
            var events: [ChangeEvent] = []
            var pending = false
            for row in result.rows {
                guard let xid = UInt64(try row.string(0)), let horizon = UInt64(try row.string(6)),
                    let kind = ChangeKind(rawValue: try row.string(2))
                else { throw RegistryError.internal() }
                guard xid < horizon else {
                    pending = true
                    break
                }
                let version = try row.optionalString(4).flatMap { Int32($0) }
                events.append(
                    ChangeEvent(
                        cursor: ChangeCursor(xid: xid, id: try row.int64(1)), kind: kind,
                        attributesType: try row.optionalString(3), version: version, at: try row.string(5)))
            }
            let full = events.count > limit
            if full { events.removeLast(events.count - limit) }
            return ChangePage(events: events, more: full, pending: pending)
        }
    }

    /// The horizon now, as the cursor before every event not yet final.
    static func horizonRead() -> StoreStatement<ChangeCursor> {
        StoreStatement(statement: changeHorizon, parameters: []) { result in
            guard let text = try result.rows.first?.string(0), let xid = UInt64(text) else { throw RegistryError.internal() }
            return ChangeCursor(xid: xid, id: 0)
        }
    }

    /// Events after the cursor in feed order, each with the statement's horizon; rows at or
    /// past the horizon are read only to learn that more is on its way.
    static let changesAfter = PGStatement(file: "feed_changes_after")

    static let changeHorizon = PGStatement(file: "feed_change_horizon")
}

/// Where a replica following the feed of every application is (`ChangeFollower`): the cursor
/// of the final events it has read, and the largest event id it has seen, final or not.
struct FeedPosition: Sendable, Equatable {
    var final: ChangeCursor
    var seenID: Int64
}

/// One read of the feed of every application.
struct FollowedPage: Sendable {
    /// Final events after the position in feed order, then committed events past the horizon
    /// with an id above every id seen (reported early, and again once final).
    var changes: [CommittedChange]
    var position: FeedPosition
    /// A part came back full: read again at once.
    var full: Bool
    /// Committed events wait only for older transactions to end: read again shortly.
    var held: Bool
}

extension PostgresSchemaStore {
    /// Now: the horizon, and the largest id, so nothing committed earlier is reported (a
    /// follower starts with empty caches).
    static func followStart() -> StoreStatement<FeedPosition> {
        StoreStatement(statement: followStartRead, parameters: []) { result in
            guard let row = result.rows.first, let xid = UInt64(try row.string(0)) else { throw RegistryError.internal() }
            return FeedPosition(final: ChangeCursor(xid: xid, id: 0), seenID: try row.int64(1))
        }
    }

    /// The events of every application after `position`, at most `limit` final and `limit`
    /// early ones. Once the final part is not full every final event has been read, so the
    /// cursor moves up to the horizon: the next read's index scan starts there.
    static func followRead(after position: FeedPosition, limit: Int) -> StoreStatement<FollowedPage> {
        StoreStatement(statement: follow, parameters: [String(position.final.xid), position.final.id, position.seenID, limit]) {
            result in
            var page = FollowedPage(changes: [], position: position, full: false, held: false)
            var finals = 0
            var earlies = 0
            var horizon: UInt64?
            for row in result.rows {
                let role = try row.string(0)
                guard let xid = UInt64(try row.string(1)) else { throw RegistryError.internal() }
                switch role {
                case "horizon", "held":
                    horizon = xid
                    page.held = role == "held"
                case "final", "early":
                    let id = try row.int64(2)
                    guard let kind = ChangeKind(rawValue: try row.string(4)) else { throw RegistryError.internal() }
                    let isFinal = role == "final"
                    if isFinal {
                        finals += 1
                        let cursor = ChangeCursor(xid: xid, id: id)
                        if (cursor.xid, cursor.id) > (page.position.final.xid, page.position.final.id) { page.position.final = cursor }
                    } else {
                        earlies += 1
                    }
                    page.position.seenID = max(page.position.seenID, id)
                    page.changes.append(
                        CommittedChange(
                            applicationID: try row.int64(3), kind: kind, attributesType: try row.optionalString(5),
                            version: try row.optionalString(6).flatMap { Int32($0) }, isFinal: isFinal))
                default:
                    throw RegistryError.internal()
                }
            }
            guard let horizon else { throw RegistryError.internal() }
            page.full = finals >= limit || earlies >= limit
            if finals < limit && horizon > page.position.final.xid { page.position.final = ChangeCursor(xid: horizon, id: 0) }
            return page
        }
    }

    /// Every replica's follower reads the feed soon after this (`ChangeFollower`). The payload
    /// names nothing: the feed says what changed. A build older than the hint reads a payload
    /// it does not know as "flush everything", which keeps it correct during a rolling deploy.
    static let hint = PGStatement(file: "feed_hint")

    static let followStartRead = PGStatement(file: "feed_follow_start")

    /// The final events after a cursor of every application, the early ones above an id, and
    /// the horizon, in one statement (one snapshot).
    static let follow = PGStatement(file: "feed_follow")
}
