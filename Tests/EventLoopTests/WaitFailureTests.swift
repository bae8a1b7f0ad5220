import Testing

#if canImport(Glibc)
    import Glibc
#endif

@testable import EventLoop

/// A loop whose wait fails for any reason but a signal can never serve again: the failure ends
/// the process, named with its errno's text; an interrupted wait, a timeout or events go on.
@Suite struct WaitFailureTests {
    @Test func onlyAFailureOtherThanAnInterruptEndsTheLoop() {
        #expect(EventLoop.waitFailure(result: 3, errorNumber: EBADF) == nil, "events: errno is stale")
        #expect(EventLoop.waitFailure(result: 0, errorNumber: EINVAL) == nil, "a timeout")
        #expect(EventLoop.waitFailure(result: -1, errorNumber: EINTR) == nil, "a signal interrupted the wait")
        #expect(EventLoop.waitFailure(result: -1, errorNumber: EBADF) == "epoll_wait failed: Bad file descriptor (errno \(EBADF))")
        #expect(EventLoop.waitFailure(result: -1, errorNumber: EFAULT) == "epoll_wait failed: Bad address (errno \(EFAULT))")
    }
}
