import CMicroHTTPD
import Synchronization

/// Feeds an `HTTPBodyStream` to libmicrohttpd's content-reader callback, which runs on the
/// connection's event loop and must never block. When the buffered piece is used up, the
/// reader suspends the connection and queues the next `next()` call on a handler thread; that
/// thread stores the piece and resumes the connection, and MHD asks the reader again.
///
/// Memory per response is one piece, whatever the body's size or the client's pace: MHD only
/// calls the reader when its send buffer has room.
final class StreamedBody: Sendable {
    private struct State {
        var piece: [UInt8]
        var offset = 0
        var finished = false
        var failed = false
        var suspended = false
    }

    private let state: Mutex<State>
    private let source: any HTTPBodyStream
    private let handlerThreads: HandlerThreads
    /// Touched only to suspend (from the reader, on the event loop) and resume (from the thread
    /// that stored the next piece, while the connection is suspended); MHD allows both.
    private let connection: SuspendedConnection.Handle

    init(first: [UInt8], rest: any HTTPBodyStream, connection: OpaquePointer, handlerThreads: HandlerThreads) {
        state = Mutex(State(piece: first))
        source = rest
        self.handlerThreads = handlerThreads
        self.connection = SuspendedConnection.Handle(connection)
    }

    /// MHD's content reader: bytes copied into `buffer`, 0 after suspending for the next
    /// piece, or the end-of-stream / error markers.
    func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        state.withLock { state in
            if state.offset < state.piece.count {
                let count = min(max, state.piece.count - state.offset)
                state.piece.withUnsafeBytes { bytes in
                    UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + state.offset, byteCount: count)
                }
                state.offset += count
                if state.offset == state.piece.count {
                    state.piece = []
                    state.offset = 0
                }
                return count
            }
            if state.failed { return Int(MHD_CONTENT_READER_END_WITH_ERROR) }
            if state.finished { return Int(MHD_CONTENT_READER_END_OF_STREAM) }
            let accepted = handlerThreads.submit { { [self] in fetchNext() } }
            guard accepted else { return Int(MHD_CONTENT_READER_END_WITH_ERROR) }  // shutting down
            state.suspended = true
            connection.suspend()
            return 0
        }
    }

    /// On a handler thread: the next non-empty piece, stored, then the connection resumed.
    private func fetchNext() {
        var piece: [UInt8]?
        var failed = false
        do {
            repeat { piece = try source.next() } while piece?.isEmpty == true
        } catch {
            failed = true
        }
        state.withLock { state in
            if let piece { state.piece = piece } else if failed { state.failed = true } else { state.finished = true }
            if state.suspended {
                state.suspended = false
                connection.resume()
            }
        }
    }

    var opaque: UnsafeMutableRawPointer { Unmanaged.passRetained(self).toOpaque() }

    static let reader: MHD_ContentReaderCallback = { cls, _, buffer, max in
        guard let cls, let buffer else { return Int(MHD_CONTENT_READER_END_WITH_ERROR) }
        return Unmanaged<StreamedBody>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, max: max)
    }

    /// Called by MHD once the response is destroyed: balances `opaque`.
    static let release: MHD_ContentReaderFreeCallback = { cls in
        guard let cls else { return }
        Unmanaged<StreamedBody>.fromOpaque(cls).release()
    }
}
