import CLibPQ

/// What a session in pipeline mode still owes, in the order libpq hands it over: each command
/// sent (a statement, or the preparation that precedes its first use in this session) and the
/// syncs sent after them.
struct PipelineState {
    enum Step {
        case prepare(String)
        case statement(String)
        case sync
    }

    var steps = FIFO<Step>()
    /// The rows or the first error of the command at the head, until libpq ends it with NULL.
    var rows: PGResult?
    var failure: PGError?
    /// A failed preparation's error, reported for the statement sent right after it, which the
    /// server then skips.
    var failedPreparation: PGError?
}

/// Driving a session from an event loop: statements are queued without waiting for earlier
/// answers, written when the socket can take them, and their answers collected when it is
/// readable, so no thread waits for the database. Errors are the blocking path's: the same
/// `PGError` kinds, the same `broken` rule, a NUL in text is `.invalidParameter`.
///
/// Each statement is followed by its own sync (`sendPipelined`'s `sync`): in a pipeline an error
/// aborts every command up to the next sync, and reads of different requests must not fail each
/// other.
extension PGConnection {
    /// Switches a freshly opened, idle session to non-blocking pipeline mode. The blocking
    /// methods must not be used on it afterwards.
    func enterPipelineMode() throws(PGError) {
        guard PQsetnonblocking(handle, 1) == 0, PQenterPipelineMode(handle) == 1 else {
            broken = true
            throw sendFailure(statement: nil)
        }
    }

    /// The socket to watch; it stays the same for the life of the session.
    var socketDescriptor: Int32 { PQsocket(handle) }

    /// True when every command sent has been answered, so anything readable can only be the
    /// server ending the session.
    var isPipelineIdle: Bool { pipeline.steps.isEmpty }

    /// Queues `statement`, preparing it first (in the same pipeline) when this session has not.
    /// Its outcome comes back from `receivePipelined`, after those of statements queued before.
    /// Call `flushPipeline` afterwards. A NUL in text throws `.invalidParameter` and sends
    /// nothing; any other failure leaves the session broken.
    ///
    /// Without `sync`, the statement shares the next one's sync: when it fails, the server skips
    /// everything up to that sync, so a transaction's BEGIN can travel with its first statement
    /// and its last writes with its COMMIT. The server also holds its answer until that sync.
    func sendPipelined(_ statement: PGStatement, _ parameters: [(any PGParameter)?], sync: Bool = true) throws(PGError) {
        let texts = try Self.texts(of: parameters, for: statement)
        if try needsPreparing(statement) {
            // No sync of its own: a failed preparation aborts the statement, which reports it.
            guard PQsendPrepare(handle, statement.name, statement.sql, 0, nil) == 1 else {
                broken = true
                throw sendFailure(statement: statement.name)
            }
            prepared[statement.name] = statement.sql
            pipeline.steps.append(.prepare(statement.name))
        }
        let sent = withCStrings(texts) { values in
            PQsendQueryPrepared(handle, statement.name, Int32(values.count), values, nil, nil, 0)
        }
        guard sent == 1, !sync || PQpipelineSync(handle) == 1 else {
            broken = true
            throw sendFailure(statement: statement.name)
        }
        pipeline.steps.append(.statement(statement.name))
        if sync { pipeline.steps.append(.sync) }
    }

    /// Writes what libpq holds; true while some of it could not be written yet, so the loop
    /// also waits for the socket to be writable. A failure leaves the session broken.
    func flushPipeline() -> Bool {
        switch PQflush(handle) {
        case 0: return false
        case 1: return true
        default:
            broken = true
            return false
        }
    }

    /// Reads what has arrived and returns the outcomes of the statements it completes, oldest
    /// first. Afterwards `isUsable` tells whether the session survived; if not, the statements
    /// still unanswered are lost and their outcome is unknown.
    func receivePipelined() -> [Result<PGResult, PGError>] {
        guard PQconsumeInput(handle) == 1 else {
            broken = true
            return []
        }
        var outcomes: [Result<PGResult, PGError>] = []
        // PQisBusy says whether PQgetResult would block; with nothing owed it would not block
        // but would return NULL, which is why our own list of steps guards the loop.
        while isUsable, let step = pipeline.steps.first, PQisBusy(handle) == 0 {
            let result = PQgetResult(handle)
            switch step {
            case .sync:
                // A sync's answer has no NULL after it.
                guard let result else { return outcomes }
                let status = PQresultStatus(result)
                PQclear(result)
                guard status == PGRES_PIPELINE_SYNC else {
                    broken = true
                    return outcomes
                }
                _ = pipeline.steps.popFirst()
            case .prepare(let name):
                if let result {
                    collect(result, statement: name)
                    continue
                }
                _ = pipeline.steps.popFirst()
                if let failure = pipeline.failure {
                    prepared[name] = nil
                    pipeline.failedPreparation = failure
                }
                pipeline.rows = nil
                pipeline.failure = nil
            case .statement(let name):
                if let result {
                    collect(result, statement: name)
                    continue
                }
                _ = pipeline.steps.popFirst()
                if let failure = pipeline.failedPreparation ?? pipeline.failure {
                    outcomes.append(.failure(settled(failure, statement: name)))
                } else {
                    outcomes.append(.success(pipeline.rows ?? PGResult()))
                }
                pipeline.rows = nil
                pipeline.failure = nil
                pipeline.failedPreparation = nil
            }
        }
        return outcomes
    }

    /// Keeps the rows or the first error of one result of the command at the head.
    private func collect(_ result: OpaquePointer, statement: String) {
        let status = PQresultStatus(result)
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY {
            let copied = PGResult(consuming: result)
            if pipeline.failure == nil { pipeline.rows = copied }
            return
        }
        defer { PQclear(result) }
        let error: PGError
        if status == PGRES_PIPELINE_ABORTED {
            error = PGError(kind: .unexpectedResult, statement: statement, debugDetail: "pipeline aborted")
        } else if status == PGRES_COPY_IN || status == PGRES_COPY_OUT || status == PGRES_COPY_BOTH {
            broken = true
            error = PGError(kind: .unexpectedResult, statement: statement, debugDetail: "COPY is not supported")
        } else {
            error = serverError(result, statement: statement)
        }
        if pipeline.failure == nil { pipeline.failure = error }
    }
}
