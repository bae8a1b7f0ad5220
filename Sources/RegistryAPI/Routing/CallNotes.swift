import Registry
import Synchronization

/// What a handler learns that the request log wants (the application code) and the version
/// its answer is about (for usage), written during the call and read after it; and the request
/// id, known before the handler runs so that audit events can carry it.
final class CallNotes: Sendable {
    private let applicationCode = Mutex<String?>(nil)
    let requestID: String

    init(requestID: String) {
        self.requestID = requestID
    }

    var application: String? {
        get { applicationCode.withLock { $0 } }
        set { applicationCode.withLock { $0 = newValue } }
    }

    private let thrown = Mutex<RegistryError?>(nil)

    /// The error the request was answered with, noted where errors become responses, so that
    /// the request's one log line can show its cause.
    var failure: RegistryError? {
        get { thrown.withLock { $0 } }
        set { thrown.withLock { $0 = newValue } }
    }

    private let answered = Mutex<VersionRead?>(nil)

    /// The version this request's answer is about, noted where a handler resolves it
    /// (`Call.noteRead`) and counted once, as a read, when the answer succeeds.
    var versionRead: VersionRead? {
        get { answered.withLock { $0 } }
        set { answered.withLock { $0 = newValue } }
    }
}

/// One version a request read.
struct VersionRead: Sendable {
    let applicationID: Int64
    let attributesType: String
    let version: Int32
}
