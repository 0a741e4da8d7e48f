import CCurl
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The sockets and the timer curl asked the loop to watch (libcurl's "multi_socket" API), and the pipe other threads
/// write to when the loop must wake up.
///
/// With `curl_multi_perform` + `curl_multi_poll`, every turn of the loop made curl look at every transfer in flight,
/// and 7.88 checks each one's socket with a `poll` of its own: a dozen system calls per sample at 32 transfers in
/// flight. With `curl_multi_socket_action` the loop polls all sockets once per turn and curl touches only the
/// transfers whose socket is ready (or whose timer ran out).
///
/// On Linux the sockets live in an epoll set that keeps curl's interest between turns: a turn costs one
/// `epoll_wait` whose work grows with the ready sockets, not a `poll` that the kernel walks over every socket in
/// flight (about 40 % of the loop's system time at 32 transfers), and a socket costs a system call only when
/// curl changes what it wants (and a socket curl lets go of stays in the set until it is closed or taken up again:
/// keep-alive connections go back and forth between requests). Elsewhere the watch polls.
///
/// `@unchecked Sendable` because everything but `wake()` (a `write` to a pipe, safe from any thread) is confined to
/// the loop thread.
final class CurlSocketWatch: @unchecked Sendable {
    /// A socket curl wants watched is ready: the socket and curl's `CURL_CSELECT_*` bits.
    struct Readiness {
        var socket: curl_socket_t
        var mask: Int32
    }

    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// Socket → `poll` events curl asked for.
    private var watched: [curl_socket_t: Int16] = [:]
    #if os(Linux)
    private let epoll: Int32
    /// Socket → the interest last given to epoll. A socket curl stopped watching stays here and in the set
    /// ("parked": an idle keep-alive connection is taken up again by the next request, and leaving it saves a
    /// `epoll_ctl` each way). The kernel drops a closed socket from the set itself, so an entry may be stale:
    /// re-watching always goes through `EPOLL_CTL_MOD`, which falls back to `ADD` for a reused descriptor.
    private var registered: [curl_socket_t: UInt32] = [:]
    /// What one `epoll_wait` returns, reused between turns.
    private var readyFDs = [Int32](repeating: 0, count: 64)
    private var readyEvents = [UInt32](repeating: 0, count: 64)
    #else
    /// The `poll` set: the wake pipe first, then `watched`; rebuilt when `watched` changed.
    private var pollSet: [pollfd] = []
    private var pollSetStale = true
    #endif
    /// When curl wants `curl_multi_socket_action(CURL_SOCKET_TIMEOUT)`; nil when it set no timer.
    private(set) var timerDeadline: ContinuousClock.Instant?

    /// Nil when the wake pipe cannot be made (out of file descriptors).
    init?() {
        var fds: [Int32] = [-1, -1]
        guard hy_wake_pipe(&fds) == 0 else { return nil }
        #if os(Linux)
        epoll = hy_epoll_create()
        guard epoll >= 0, hy_epoll_set(epoll, fds[0], hy_epollin(), 0) == 0 else {
            if epoll >= 0 { close(epoll) }
            close(fds[0])
            close(fds[1])
            return nil
        }
        #endif
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
        #if os(Linux)
        close(epoll)
        #endif
    }

    /// Points curl's socket and timer callbacks at this watch. The watch must outlive `multi`'s use.
    func install(on multi: UnsafeMutableRawPointer) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = hy_multi_setopt_pointer(multi, CURLMOPT_SOCKETDATA, me)
        _ = hy_multi_setopt_socket_cb(multi) { _, socket, what, userp, _ in
            guard let userp else { return 0 }
            Unmanaged<CurlSocketWatch>.fromOpaque(userp).takeUnretainedValue().watch(socket, what: what)
            return 0
        }
        _ = hy_multi_setopt_pointer(multi, CURLMOPT_TIMERDATA, me)
        _ = hy_multi_setopt_timer_cb(multi) { _, milliseconds, userp in
            guard let userp else { return 0 }
            let watch = Unmanaged<CurlSocketWatch>.fromOpaque(userp).takeUnretainedValue()
            watch.timerDeadline = milliseconds < 0 ? nil : .now + .milliseconds(milliseconds)
            return 0
        }
    }

    /// Makes the loop's `wait` return now (or at once next time). Safe from any thread.
    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// True (and the timer cleared) when curl's timer ran out: the loop then tells curl.
    func takeExpiredTimer(now: ContinuousClock.Instant) -> Bool {
        guard let deadline = timerDeadline, deadline <= now else { return false }
        timerDeadline = nil
        return true
    }

    /// Waits up to `milliseconds` (0: just look) for a watched socket to be ready or a wake-up; returns the ready
    /// sockets. A wake-up is consumed here.
    func wait(milliseconds: Int32, into ready: inout [Readiness]) {
        ready.removeAll(keepingCapacity: true)
        #if os(Linux)
        let count = readyFDs.withUnsafeMutableBufferPointer { fds in
            readyEvents.withUnsafeMutableBufferPointer { events in
                hy_epoll_wait(epoll, fds.baseAddress, events.baseAddress, Int32(fds.count), milliseconds)
            }
        }
        for index in 0..<max(0, Int(count)) {
            let fd = readyFDs[index]
            if fd == wakeRead {
                drainWakeups()
            } else if watched[fd] == nil {
                // A parked socket woke (its idle connection was closed by the server): drop it now, or a
                // level-triggered set would report it on every turn. curl finds the connection dead when it tries it.
                _ = hy_epoll_set(epoll, fd, 0, 1)
                registered[fd] = nil
            } else {
                ready.append(Readiness(socket: fd, mask: Self.curlMask(epollEvents: readyEvents[index])))
            }
        }
        #else
        if pollSetStale { rebuildPollSet() }
        let count = pollSet.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), milliseconds) }
        guard count > 0 else { return }
        if pollSet[0].revents != 0 { drainWakeups() }
        for entry in pollSet.dropFirst() where entry.revents != 0 {
            ready.append(Readiness(socket: entry.fd, mask: Self.curlMask(entry.revents)))
        }
        #endif
    }

    private func watch(_ socket: curl_socket_t, what: Int32) {
        if what == CURL_POLL_REMOVE {
            // Parked, not removed from epoll (see `registered`); `poll` rebuilds its set.
            watched[socket] = nil
            #if !os(Linux)
            pollSetStale = true
            #endif
            return
        }
        var events: Int16 = 0
        if what & CURL_POLL_IN != 0 { events |= Int16(POLLIN) }
        if what & CURL_POLL_OUT != 0 { events |= Int16(POLLOUT) }
        guard watched[socket] != events else { return }
        watched[socket] = events
        #if os(Linux)
        var interest: UInt32 = 0
        if events & Int16(POLLIN) != 0 { interest |= hy_epollin() }
        if events & Int16(POLLOUT) != 0 { interest |= hy_epollout() }
        // With `events` 0 (curl wants nothing but keeps the socket) the socket leaves the set.
        let added = registered[socket] != nil
        _ = hy_epoll_set(epoll, socket, interest, added ? 1 : 0)
        registered[socket] = interest == 0 ? nil : interest
        #else
        pollSetStale = true
        #endif
    }

    #if !os(Linux)
    private func rebuildPollSet() {
        pollSet.removeAll(keepingCapacity: true)
        pollSet.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
        for (socket, events) in watched { pollSet.append(pollfd(fd: socket, events: events, revents: 0)) }
        pollSetStale = false
    }
    #endif

    private func drainWakeups() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &buffer, buffer.count) > 0 {}
    }

    #if os(Linux)
    private static func curlMask(epollEvents events: UInt32) -> Int32 {
        var mask: Int32 = 0
        if events & (hy_epollin() | hy_epollhup()) != 0 { mask |= CURL_CSELECT_IN }
        if events & hy_epollout() != 0 { mask |= CURL_CSELECT_OUT }
        if events & hy_epollerr() != 0 { mask |= CURL_CSELECT_ERR }
        return mask
    }
    #endif

    private static func curlMask(_ revents: Int16) -> Int32 {
        var mask: Int32 = 0
        if revents & Int16(POLLIN | POLLHUP) != 0 { mask |= CURL_CSELECT_IN }
        if revents & Int16(POLLOUT) != 0 { mask |= CURL_CSELECT_OUT }
        if revents & Int16(POLLERR | POLLNVAL) != 0 { mask |= CURL_CSELECT_ERR }
        return mask
    }
}
