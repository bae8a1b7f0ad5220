import Registry

/// The change feed (table `change_events`). Event ids and transaction ids are both allocated
/// before commit, so a later event can commit first. An event is handed out only when its
/// transaction is older than the feed's horizon, the oldest transaction that may still write
/// this database's events (`registry_feed_horizon()`): nothing can be added before it any
/// more, so a reader following (xid, id) skips nothing. A statement never reads an older
/// horizon than one that finished before it, so an event once handed out as final stays so.
///
/// Both reads are one statement each, awaited without a thread waiting on the caller's event
/// loop (`ConnectionPool.value(of:)`).
extension PostgresSchemaStore {
    public func changes(application: Application, after cursor: ChangeCursor, limit: Int) async throws -> ChangePage {
        try await pool.value(of: Self.changesRead(application: application, after: cursor, limit: limit))
    }

    /// The horizon now, as the cursor before every event not yet final.
    public func currentChangeCursor() async throws -> ChangeCursor {
        try await pool.value(of: StoreStatement(statement: Self.changeHorizon, parameters: []) { result in
            guard let text = try result.rows.first?.string(0), let xid = UInt64(text) else { throw RegistryError.internal() }
            return ChangeCursor(xid: xid, id: 0)
        })
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

    /// Events after the cursor in feed order, each with the statement's horizon; rows at or
    /// past the horizon are read only to learn that more is on its way.
    static let changesAfter = PGStatement(file: "feed_changes_after")

    static let changeHorizon = PGStatement(file: "feed_change_horizon")
}

/// Where a replica following the feed of every application is (`ChangeFollower`): the
/// snapshot of its last read, as PostgreSQL writes it (`xmin:xmax:xip,…`). The events that
/// became visible since are exactly those of transactions that snapshot did not see: the ones
/// it lists as running and every later one. So a read skips nothing and repeats nothing,
/// whatever order transactions commit in, and needs no horizon.
struct FeedPosition: Sendable, Equatable {
    let snapshot: String
    /// The primary's WAL insert position, read by the same statement after its snapshot was
    /// taken: at or past the commit record of every change that snapshot sees, since a
    /// transaction becomes visible only after its commit record is inserted. Nil on a standby.
    /// A standby that has replayed this far shows everything the read reported
    /// (`StandbyReads`).
    var insertLSN: UInt64? = nil
}

/// One read of the feed of every application.
struct FollowedPage: Sendable {
    /// The events committed since the position, in feed order.
    var changes: [CommittedChange]
    var position: FeedPosition
    /// More than the limit were committed since the position: their events were not read,
    /// and the follower forgets everything instead.
    var overflowed: Bool
}

extension PostgresSchemaStore {
    /// Now: nothing committed earlier is reported (a follower starts with empty caches).
    static func followStart() -> StoreStatement<FeedPosition> {
        StoreStatement(statement: followStartRead, parameters: []) { result in
            guard let row = result.rows.first else { throw RegistryError.internal() }
            return FeedPosition(snapshot: try row.string(0), insertLSN: try lsn(row, 1))
        }
    }

    /// The events committed since `position`, at most `limit` of them.
    static func followRead(after position: FeedPosition, limit: Int) -> StoreStatement<FollowedPage> {
        StoreStatement(statement: follow, parameters: [position.snapshot, limit + 1]) { result in
            var changes: [CommittedChange] = []
            var snapshot: String?
            var insertLSN: UInt64?
            for row in result.rows {
                if let taken = try row.optionalString(0) {
                    snapshot = taken
                    insertLSN = try lsn(row, 1)
                    continue
                }
                guard let kind = ChangeKind(rawValue: try row.string(3)) else { throw RegistryError.internal() }
                changes.append(
                    CommittedChange(
                        applicationID: try row.int64(2), kind: kind, attributesType: try row.optionalString(4),
                        version: try row.optionalString(5).flatMap { Int32($0) }))
            }
            guard let snapshot else { throw RegistryError.internal() }
            let overflowed = changes.count > limit
            return FollowedPage(changes: overflowed ? [] : changes, position: FeedPosition(snapshot: snapshot, insertLSN: insertLSN),
                overflowed: overflowed)
        }
    }

    /// A WAL position the statement gives as bytes from `0/0` (`bigint`), nil when NULL.
    static func lsn(_ row: PGRow, _ column: Int) throws(PGError) -> UInt64? {
        guard let text = try row.optionalString(column) else { return nil }
        guard let value = UInt64(text) else { throw PGError(kind: .unexpectedResult, debugDetail: "column \(column) is not a WAL position") }
        return value
    }

    /// Every replica's follower reads the feed soon after this (`ChangeFollower`). The payload
    /// names nothing: the feed says what changed. A build older than the hint reads a payload
    /// it does not know as "flush everything", which keeps it correct during a rolling deploy.
    static let hint = PGStatement(file: "feed_hint")

    static let followStartRead = PGStatement(file: "feed_follow_start")

    /// The events of transactions the position's snapshot did not see but the statement's does,
    /// and the statement's snapshot, in one statement.
    static let follow = PGStatement(file: "feed_follow")
}
