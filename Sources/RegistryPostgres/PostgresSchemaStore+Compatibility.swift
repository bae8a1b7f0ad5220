import Registry

/// What a new version is compared with, read in the same statement as the publish (or by the
/// dry run): the type's policy, its newest live version and each distinct live text of the type
/// once, at its oldest live version, from the floor up, newest first up to a limit.
extension PostgresSchemaStore {
    /// Two reads, each its own statement: a version deleted between them has no text and is
    /// skipped by the review, as it is no longer live.
    public func comparisonBasis(application: Application, attributesType: String, below version: Int32?, comparing comparison: Comparison)
        async throws -> ComparisonBasis
    {
        let bound = version.map(Int64.init) ?? (Int64(Int32.max) + 1)
        let reads = PooledReads(pool: pool)
        let rows = try await reads.execute(Self.readBasis, [application.id, attributesType, bound, Self.clamped(comparison.limit)]).rows
        return try await Self.withTexts(
            Self.basis(rows, limit: comparison.limit).basis, comparison, application: application, attributesType: attributesType,
            on: reads)
    }

    /// At least one text is always compared, at most what fits a 32-bit SQL integer.
    static func clamped(_ limit: Int) -> Int { min(max(limit, 1), Int(Int32.max) - 1) }

    /// The dry run's read: the policy row, then the basis below $3 (at most $4 earlier texts), in
    /// the rows `basis` reads; the publish statements end with the same rows.
    static let readBasis = PGStatement(file: "compatibility_basis")

    /// The basis with the texts `comparison` needs, read on `connection` (in the caller's
    /// transaction, or just after the publish committed: a version deleted meanwhile then has
    /// no text and is left to the caller to skip, as it is no longer live).
    static func withTexts(
        _ basis: ComparisonBasis, _ comparison: Comparison, application: Application, attributesType: String,
        on session: any SQLSession
    ) async throws -> ComparisonBasis {
        let all = basis.earlier + (basis.newest.map { [$0] } ?? [])
        let wanted = Set(all.filter { comparison.needsText($0.contentHash) }.map(\.version))
        var texts: [Int32: String] = [:]
        if !wanted.isEmpty {
            let versions = "{" + wanted.sorted().map(String.init).joined(separator: ",") + "}"
            for row in try await session.execute(textsOfVersions, [application.id, attributesType, versions]).rows {
                texts[try row.int32(0)] = try row.string(1)
            }
        }
        let filled = { (schema: EarlierSchema) in
            EarlierSchema(version: schema.version, contentHash: schema.contentHash, jsonSchema: texts[schema.version])
        }
        return ComparisonBasis(
            policy: basis.policy, newest: basis.newest.map(filled), earlier: basis.earlier.map(filled),
            limitReached: basis.limitReached, newestVersion: basis.newestVersion)
    }

    static let textsOfVersions = PGStatement(file: "compatibility_texts")

    /// Reads the rows of a publish or of `readBasis`: the published version (when the first
    /// row has one) and the basis, at most `limit` earlier texts (the newest ones).
    static func basis(_ rows: [PGRow], limit: Int) throws -> (published: (version: Int32, created: String)?, basis: ComparisonBasis) {
        var policy: EffectivePolicy?
        var published: (Int32, String)?
        var newest: EarlierSchema?
        var earlier: [EarlierSchema] = []
        for row in rows {
            switch try row.string(0) {
            case "policy":
                policy = try effectivePolicy(row, from: 5)
                if let created = try row.optionalString(2) { published = (try row.int32(1), created) }
            case "newest":
                newest = EarlierSchema(version: try row.int32(1), contentHash: try row.bytea(3), jsonSchema: nil)
            default:
                earlier.append(EarlierSchema(version: try row.int32(1), contentHash: try row.bytea(3), jsonSchema: nil))
            }
        }
        guard let policy else { throw RegistryError.internal("the compatibility policy was not read") }
        earlier.sort { $0.version > $1.version }
        let limitReached = earlier.count > clamped(limit)
        if limitReached { earlier.removeLast(earlier.count - clamped(limit)) }
        // The newest row comes in every mode; under none it is only the number, compared with nothing.
        let compared = policy.policy.mode == .none ? nil : newest
        return (
            published,
            ComparisonBasis(
                policy: policy, newest: compared, earlier: earlier.reversed(), limitReached: limitReached,
                newestVersion: newest?.version)
        )
    }

    /// The five policy columns starting at `column`: mode, enforce, floor, source, updated.
    static func effectivePolicy(_ row: PGRow, from column: Int) throws -> EffectivePolicy {
        guard let mode = CompatibilityPolicy.Mode(rawValue: try row.string(column)),
            let enforce = CompatibilityPolicy.Enforcement(rawValue: try row.string(column + 1)),
            let source = EffectivePolicy.Source(rawValue: try row.string(column + 3))
        else { throw RegistryError.internal("unknown compatibility policy value in the database") }
        return EffectivePolicy(
            policy: CompatibilityPolicy(mode: mode, enforce: enforce, oldestSupportedVersion: try row.int32(column + 2)),
            source: source, updated: try row.optionalString(column + 4))
    }

    /// Runs a publish statement on `connection` and reads its result (the rows `basis` reads),
    /// then the texts `comparison` needs. Nil when nothing was inserted because the policy
    /// rejects incompatible versions and `force` was not given; no version otherwise means the
    /// counter is at the ceiling (only next-free can return none).
    static func publication(
        _ statement: (PGStatement, [(any PGParameter)?]), on session: any SQLSession, application: Application,
        attributesType: String, jsonSchema: String, createdBy: String?, metadata: VersionMetadata = VersionMetadata(),
        comparing comparison: Comparison, force: Bool
    ) async throws -> Publication? {
        let rows = try await session.execute(statement.0, statement.1).rows
        let (published, read) = try basis(rows, limit: comparison.limit)
        guard let published else {
            if !force && read.policy.policy.needsReview { return nil }
            throw RegistryError.invalidArgument("no version is free for attributesType \"\(attributesType)\"")
        }
        let schema = SchemaVersion(
            applicationCode: application.code, attributesType: attributesType, version: published.version,
            jsonSchema: jsonSchema, created: published.created, createdBy: createdBy, metadata: metadata)
        let basis = try await withTexts(read, comparison, application: application, attributesType: attributesType, on: session)
        return Publication(schema: schema, basis: basis)
    }

    /// The publish inside the caller's transaction, which commits only after the review. A
    /// publish the review may refuse (`mayBeRefused`, or a policy that rejects: the first
    /// statement then inserts nothing) takes the type's review lock and publishes after it.
    static func reviewedPublication(
        application: Application, attributesType: String, version: VersionRequest, jsonSchema: String, by actor: AuditActor,
        metadata: VersionMetadata = VersionMetadata(), fieldPaths: [String]? = nil, comparing comparison: Comparison,
        on session: any SQLSession
    ) async throws -> Publication {
        for force in comparison.mayBeRefused ? [true] : [false, true] {
            if force { _ = try await session.execute(serializeReviewedPublishes, [application.id, attributesType]) }
            let statement = try publishStatement(
                application: application, attributesType: attributesType, version: version, jsonSchema: jsonSchema, by: actor,
                metadata: metadata, fieldPaths: fieldPaths, force: force, limit: comparison.limit)
            if let publication = try await publication(
                statement, on: session, application: application, attributesType: attributesType, jsonSchema: jsonSchema,
                createdBy: actor.createdBy, metadata: metadata, comparing: comparison, force: force)
            {
                return publication
            }
        }
        throw RegistryError.internal("a forced publish inserted nothing")
    }

    /// Taken by a reviewed publish before its publish statement, so that statement's snapshot
    /// (READ COMMITTED: taken when it starts) already holds every version committed by an
    /// earlier reviewed publish of the type: two concurrent publishes under a rejecting policy
    /// are reviewed one after the other, the second against the first. A transaction-level
    /// advisory lock, because a type's first version has no counter row to lock yet; plain
    /// publishes never take it, so no lock-order cycle can arise.
    static let serializeReviewedPublishes = PGStatement(file: "compatibility_serialize_reviews")
}
