import CMicroHTTPD
import EventLoop
import Synchronization

/// Feeds an `HTTPBodyStream` to libmicrohttpd's content-reader callback, which runs on the
/// connection's event loop and must never block. While one piece is sent, a task on that loop
/// produces the next (awaiting the database holds no thread); when the client is faster than
/// that, the reader suspends the connection and the task resumes it once the piece is there.
///
/// Memory per response is two pieces, whatever the body's size or the client's pace: MHD only
/// calls the reader when its send buffer has room, so nothing is produced for a client that
/// does not read.
final class StreamedBody: Sendable {
    private struct State {
        var piece: [UInt8]
        var offset = 0
        /// Produced ahead while `piece` is being sent, so the client rarely waits for a piece.
        var ahead: [UInt8]?
        var fetching = false
        var finished = false
        var failed = false
        var suspended = false
    }

    private let state: Mutex<State>
    private let source: any HTTPBodyStream
    /// The connection's loop: the producing task prefers it as its executor.
    private let loop: EventLoop
    /// Touched only to suspend (from the reader, on the event loop) and resume (from the task
    /// that stored the next piece, while the connection is suspended); MHD allows both.
    private let connection: SuspendedConnection.Handle

    init(first: [UInt8], rest: any HTTPBodyStream, connection: OpaquePointer, loop: EventLoop) {
        state = Mutex(State(piece: first))
        source = rest
        self.loop = loop
        self.connection = SuspendedConnection.Handle(connection)
    }

    /// MHD's content reader: bytes copied into `buffer`, 0 after suspending until the next
    /// piece is there, or the end-of-stream / error markers. At most two pieces are held: the
    /// one being sent and the one produced ahead of it.
    func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        state.withLock { state in
            if state.offset == state.piece.count, let ahead = state.ahead {
                state.piece = ahead
                state.offset = 0
                state.ahead = nil
            }
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
                if state.ahead == nil && !state.fetching && !state.finished && !state.failed {
                    state.fetching = fetchAhead()
                }
                return count
            }
            if state.failed { return Int(MHD_CONTENT_READER_END_WITH_ERROR) }
            if state.finished { return Int(MHD_CONTENT_READER_END_OF_STREAM) }
            if !state.fetching {
                guard fetchAhead() else { return Int(MHD_CONTENT_READER_END_WITH_ERROR) }  // shutting down
                state.fetching = true
            }
            state.suspended = true
            connection.suspend()
            return 0
        }
    }

    /// Starts the next `next()` call on the loop once this callback has returned (the reader
    /// holds the state's lock); false once the loop has stopped.
    private func fetchAhead() -> Bool {
        let loop = loop
        return loop.execute { [self] in Task.immediate(executorPreference: loop) { await fetchNext() } }
    }

    /// The next non-empty piece, stored, then the connection resumed if it waits for it.
    private func fetchNext() async {
        var piece: [UInt8]?
        var failed = false
        do {
            repeat { piece = try await source.next() } while piece?.isEmpty == true
        } catch {
            failed = true
        }
        state.withLock { state in
            state.fetching = false
            if let piece { state.ahead = piece } else if failed { state.failed = true } else { state.finished = true }
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
