import Synchronization

/// What a handler learns that the request log wants (the application code), written once
/// during the call and read after it.
final class CallNotes: Sendable {
    private let applicationCode = Mutex<String?>(nil)

    var application: String? {
        get { applicationCode.withLock { $0 } }
        set { applicationCode.withLock { $0 = newValue } }
    }
}
