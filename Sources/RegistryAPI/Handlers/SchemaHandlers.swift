import HTTPServer
import Registry

/// The four endpoints of the schema API (list, create, get, delete), each checking in one
/// order: malformed request → application (404, 403) → schema rules → conflict.
enum SchemaHandlers {
    static let maxPageSize = 1000

    /// Every page is read on the loop; a long page holds one of `longPages`' turns while it is
    /// read and written, which bounds the memory such pages take.
    static func list(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let code = try call.query.requiredString(.application)
        let attributesType = try call.query.string(.attributesType)
        if let attributesType { try AttributesTypeName.validate(attributesType) }
        let pageSize = try pageSize(call.query.string(.pageSize))
        let cursor = try call.query.pageToken(PageToken.decode)
        let includingDisabled = try includesDisabled(call.query.string(include))
        let application = try await call.application(code: code)
        guard let pageSize else {
            return try await SchemaListStream.respond(
                call, application: application, attributesType: attributesType, after: cursor, includingDisabled: includingDisabled)
        }
        let read = { () async throws(RegistryError) -> HTTPResponse in
            let rows = try await call.read {
                try await $0.list(
                    application: application, attributesType: attributesType, after: cursor, limit: pageSize + 1,
                    includingDisabled: includingDisabled)
            }
            return try await rendering(call, rows) { page(rows, pageSize) }
        }
        guard pageSize < PlacementLimits.loopPageRows else { return try await call.longPages.holding(read) }
        return try await read()
    }

    static let include = FieldName("include")

    /// `include=disabled` lists disabled versions too; nothing else may be included.
    static func includesDisabled(_ text: String?) throws(RegistryError) -> Bool {
        guard let text, !text.isEmpty else { return false }
        guard text.utf8.elementsEqual("disabled".utf8) else {
            throw .invalidArgument("include: must be \"disabled\", not \(ClientText.quoted(text))")
        }
        return true
    }

    static let pagesBusy = RegistryError.unavailable("the server is busy writing long list pages; retry in a moment", retryAfterSeconds: 1)

    /// `rows` (one more than a page, when there is a next page) as a page with its token.
    private static func page(_ rows: [SchemaVersion], _ pageSize: Int) -> HTTPResponse {
        var page = rows
        let nextToken = PageToken.trim(&page, to: pageSize) {
            PageToken.encode(ListCursor(attributesType: $0.attributesType, version: $0.version))
        }
        return JSONResponse.make(bytes: SchemaJSON.listBody(page, nextPageToken: nextToken))
    }

    /// `render` on the event loop when the rows are small enough, else on a handler thread.
    static func rendering(_ call: Call, _ rows: [SchemaVersion], _ render: @escaping @Sendable () -> HTTPResponse)
        async throws(RegistryError) -> HTTPResponse
    {
        let bytes = rows.reduce(0) { $0 + $1.jsonSchema.utf8.count }
        guard bytes > PlacementLimits.listBytesOnTheLoop else { return render() }
        return try await call.work { render() }
    }

    /// From memory when the application and the body are cached.
    static func get(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let (code, attributesType, version) = try call.versionPath()
        let application = try await call.application(code: code)
        return try await schemaResponse(call, application, attributesType, version)
    }

    /// One version's body, from the response cache when warm.
    static func schemaResponse(
        _ call: Call, _ application: Application, _ attributesType: String, _ version: Int32, resolvedFromLatest: Bool = false
    ) async throws(RegistryError) -> HTTPResponse {
        try await CachedResponse.respond(call, .schema, of: application, attributesType, version, resolvedFromLatest: resolvedFromLatest) {
            schema in SchemaJSON.getBody(schema)
        }
    }

    /// Schema rules are checked before anything is written; the compatibility report comes
    /// from the rows the publish statement read, under the policy that statement read. The
    /// publish, its review (which `requireCompatible` or a rejecting policy may turn into a
    /// veto), its audit event and an idempotency key's record are one transaction.
    ///
    /// Reads top to bottom on the loop: the body, the key, the application and a key's
    /// recorded response, then the transaction, which holds one of the loop's sessions and no
    /// thread. A large schema's publish holds a heavy-work permit throughout (waited for
    /// holding no thread), and its validation and review run on a handler thread.
    static func create(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let request = try PublishRequest(call.body())
        let key = try call.request.header("idempotency-key").map { header throws(RegistryError) in
            try IdempotencyKey.validate(header)
        }
        let application = try await call.application(code: request.applicationCode)
        var claim: IdempotencyClaim?
        if let key, let accountID = call.accountID {
            let made = IdempotencyClaim(
                accountID: accountID, applicationID: application.id, key: key, requestHash: SHA256.hash(call.request.body))
            if let stored = try await call.read({ try await $0.storedResponse(accountID: accountID, applicationID: application.id, idempotencyKey: key) }) {
                return replayResponse(try made.replay(stored))
            }
            claim = made
        }
        let heavy = Reviews.isHeavy(request.jsonSchema)
        let permit = try await call.permit(heavy: heavy)
        defer { permit?.release() }
        let (submitted, fieldPaths) = try await call.compute(heavy: heavy, permitHeld: true) { () throws(RegistryError) in
            let submitted = try call.caches.documents.validated(request.jsonSchema)
            return (submitted, FormBuilder.form(for: submitted.document).fieldPaths)
        }
        let outlines = call.reviews.outlines.forReview(limit: call.reviews.maxComparedVersions, mayBeRefused: request.requireCompatible)
        let outcome = try await call.store.publish(
            application: application, attributesType: request.attributesType, version: request.version,
            jsonSchema: request.jsonSchema, by: call.actor, metadata: request.metadata, fieldPaths: fieldPaths,
            comparing: outlines.comparison, once: claim, returningIdenticalNewest: request.returnExisting, for: call.request,
            response: { publication async throws(RegistryError) in
                try await call.compute(heavy: heavy, permitHeld: true) { () throws(RegistryError) in
                    try answer(request, submitted, publication, outlines: outlines, listLimit: call.reviews.maxReportedProblems)
                }
            })
        return published(outcome, call)
    }

    /// The review of a version inside its publish's transaction (a refusal throws and rolls
    /// it back), as the answer that transaction records.
    private static func answer(
        _ request: PublishRequest, _ submitted: ValidatedSchema, _ publication: Publication, outlines: ReviewOutlines, listLimit: Int
    ) throws(RegistryError) -> PublishAnswer {
        let review = try PublishReview(request, submitted, basis: publication.basis, outlines: outlines, listLimit: listLimit)
        var schema = publication.schema
        schema.warnings = review.checks.warnings
        var body = review.response(for: schema)
        if request.returnExisting, case .object(var fields) = body {
            fields["existing"] = .bool(false)
            body = .object(fields)
        }
        return PublishAnswer(body: JSONResponse.body(body), auditDetails: review.auditDetails, warnings: review.checks.warnings)
    }

    /// The HTTP answer of one publish's outcome.
    private static func published(_ outcome: PublishOutcome, _ call: Call) -> HTTPResponse {
        switch outcome {
        case .published(_, let body):
            call.metrics.recordPublished()
            return JSONResponse.make(bytes: body)
        case .existing(let schema):
            return JSONResponse.make(["schema": SchemaJSON.object(schema), "existing": .bool(true)])
        case .replayed(let body):
            return replayResponse(body)
        }
    }

    static func replayResponse(_ body: [UInt8]) -> HTTPResponse {
        JSONResponse.make(bytes: body, headers: [("Idempotent-Replayed", "true")])
    }

    /// Deletes with its audit event in one statement, read on the loop. The answer carries the
    /// version's usage summary, read first: who was still reading what is now gone.
    static func delete(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let (code, attributesType, version) = try call.versionPath()
        let application = try await call.application(code: code)
        let usage = try await UsageHandlers.summary(call, application, attributesType, version: version)
        let deleted = try await call.read { try await $0.delete(application: application, attributesType: attributesType, version: version, by: call.actor) }
        guard deleted else { throw notFound(attributesType, version) }
        call.caches.forget(CommittedChange(applicationID: application.id, kind: .deleted, attributesType: attributesType, version: version))
        call.metrics.recordDeleted()
        let propagation = await PropagationBarrier.wait(call)
        return JSONResponse.make(["usage": usage, "propagation": propagation])
    }

    /// One live version read on the loop for an answer about it, noted as a read of it
    /// (`Call.noteRead`); 404 when there is none or it is disabled.
    static func readVersion(_ call: Call, _ application: Application, _ attributesType: String, _ version: Int32)
        async throws(RegistryError) -> SchemaVersion
    {
        let schema = try await live(call, application, attributesType, version)
        call.noteRead(application, attributesType, version)
        return schema
    }

    /// One version read on the loop, `afterRead` run once it is read, then checked (`found`).
    static func live(
        _ call: Call, _ application: Application, _ attributesType: String, _ version: Int32, afterRead: () -> Void = {}
    ) async throws(RegistryError) -> SchemaVersion {
        let read = try await call.read { try await $0.schema(application: application, attributesType: attributesType, version: version) }
        afterRead()
        return try found(read, attributesType, version, for: call)
    }

    /// The version a reader asked for: 404 when unknown or deleted, and the disabled 404
    /// (`VersionNotice.disabled`) when it is disabled.
    static func found(_ schema: SchemaVersion?, _ attributesType: String, _ version: Int32, for call: Call) throws(RegistryError)
        -> SchemaVersion
    {
        guard let schema else { throw notFound(attributesType, version) }
        if case .disabled(let disablement) = schema.state { throw VersionNotice.disabled(schema, disablement, for: call) }
        return schema
    }

    static func notFound(_ attributesType: String, _ version: Int32) -> RegistryError {
        .notFound("attributesType \(ClientText.quoted(attributesType)) version \(version) not found")
    }

    /// `pageSize` 0 or omitted returns everything; 1–1000 pages; anything else is a 400.
    static func pageSize(_ text: String?) throws(RegistryError) -> Int? {
        guard let text, !text.isEmpty else { return nil }
        guard let size = Int(text), (0...maxPageSize).contains(size) else {
            throw .invalidArgument("pageSize: must be an integer from 0 to \(maxPageSize)")
        }
        return size == 0 ? nil : size
    }
}
