import Registry
import Synchronization

/// What a handler learns that the request log wants (the application code), written once
/// during the call and read after it; and the request id, known before the handler runs so
/// that audit events can carry it.
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
}
