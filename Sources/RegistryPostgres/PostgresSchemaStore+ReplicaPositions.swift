import Registry

/// Where each replica's change follower is (table `replica_feed_positions`, migration 0020):
/// the follower writes its row (`ChangeFollower.writePosition`) after each read of the feed it has applied,
/// and a change's answer reads every row against the database's position just after its
/// commit (`replicaPositions`), to wait until the live replicas have applied it.
extension PostgresSchemaStore {
    /// One statement: the target is taken by its first read (nil), and given back to the next.
    public func replicaPositions(after target: String?) async throws -> ReplicaPositions {
        try await pool.value(of: Self.positionsRead(after: target))
    }

    /// Forgets replicas not seen for `seconds` (restarted or removed ones), in one statement:
    /// there is a row per replica process, at most a few hundred in an hour.
    public func pruneReplicaPositions(notSeenForSeconds seconds: Int) throws -> Int {
        try pool.perform(.write) { connection in
            try connection.execute(Self.positionsPrune, [Int64(seconds)]).affectedRows
        }
    }

    static func positionsRead(after target: String?) -> StoreStatement<ReplicaPositions> {
        StoreStatement(statement: positionsAgainstTarget, parameters: [target]) { result in
            var taken: String?
            var sightings: [ReplicaSighting] = []
            for row in result.rows {
                taken = try row.string(0)
                guard let replica = try row.optionalString(1) else { continue }
                sightings.append(
                    ReplicaSighting(replicaID: replica, millisecondsSinceSeen: try row.int64(2), applied: try row.string(3) == "true"))
            }
            guard let taken else { throw RegistryError.internal() }
            return ReplicaPositions(target: taken, sightings: sightings)
        }
    }

    static let positionsAgainstTarget = PGStatement(file: "replica_propagation")
    static let positionUpsert = PGStatement(file: "replica_position_upsert")
    static let positionDelete = PGStatement(file: "replica_position_delete")
    static let positionsPrune = PGStatement(file: "replica_positions_prune")
}

/// A replica's name in `replica_feed_positions`: its host and process, and a random part so a
/// restarted process (or two followers in one test process) is a new row.
public struct ReplicaIdentity: Sendable, Equatable {
    public let id: String
    public let host: String
}
