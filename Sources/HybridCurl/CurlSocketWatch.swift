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
    /// The `poll` set: the wake pipe first, then `watched`; rebuilt when `watched` changed.
    private var pollSet: [pollfd] = []
    private var pollSetStale = true
    /// When curl wants `curl_multi_socket_action(CURL_SOCKET_TIMEOUT)`; nil when it set no timer.
    private(set) var timerDeadline: ContinuousClock.Instant?

    /// Nil when the wake pipe cannot be made (out of file descriptors).
    init?() {
        var fds: [Int32] = [-1, -1]
        guard hy_wake_pipe(&fds) == 0 else { return nil }
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
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
        if pollSetStale { rebuildPollSet() }
        let count = pollSet.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), milliseconds) }
        guard count > 0 else { return }
        if pollSet[0].revents != 0 { drainWakeups() }
        for entry in pollSet.dropFirst() where entry.revents != 0 {
            ready.append(Readiness(socket: entry.fd, mask: Self.curlMask(entry.revents)))
        }
    }

    private func watch(_ socket: curl_socket_t, what: Int32) {
        if what == CURL_POLL_REMOVE {
            watched[socket] = nil
        } else {
            var events: Int16 = 0
            if what & CURL_POLL_IN != 0 { events |= Int16(POLLIN) }
            if what & CURL_POLL_OUT != 0 { events |= Int16(POLLOUT) }
            watched[socket] = events
        }
        pollSetStale = true
    }

    private func rebuildPollSet() {
        pollSet.removeAll(keepingCapacity: true)
        pollSet.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
        for (socket, events) in watched { pollSet.append(pollfd(fd: socket, events: events, revents: 0)) }
        pollSetStale = false
    }

    private func drainWakeups() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &buffer, buffer.count) > 0 {}
    }

    private static func curlMask(_ revents: Int16) -> Int32 {
        var mask: Int32 = 0
        if revents & Int16(POLLIN | POLLHUP) != 0 { mask |= CURL_CSELECT_IN }
        if revents & Int16(POLLOUT) != 0 { mask |= CURL_CSELECT_OUT }
        if revents & Int16(POLLERR | POLLNVAL) != 0 { mask |= CURL_CSELECT_ERR }
        return mask
    }
}
