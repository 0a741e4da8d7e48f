package import Foundation
import Synchronization

/// Hands response body chunks from the curl loop thread to the task iterating `HTTPResponse.body`.
///
/// A hand-written channel rather than `AsyncThrowingStream.Continuation`: the stock stream ends silently (returns
/// nil) when the consumer's task is cancelled, which would look like a complete body. Here a cancelled consumer
/// gets `TransportError.cancelled`, and the transfer is aborted through `cancelTransfer`.
package final class BodyChannel: Sendable {
    private struct State {
        var chunks: [Data] = []
        var head = 0
        /// Set once the producer finished: success, or the error to throw.
        var end: Result<Void, TransportError>?
        var endDelivered = false
        var cancelled = false
        var waiter: CheckedContinuation<Result<Data?, TransportError>, Never>?
    }

    private let state = Mutex(State())
    private let url: String
    private let cancelTransfer: @Sendable () -> Void

    package init(url: String, cancelTransfer: @escaping @Sendable () -> Void) {
        self.url = url
        self.cancelTransfer = cancelTransfer
    }

    /// Producer side (loop thread): one chunk, in wire order.
    package func yield(_ chunk: Data) {
        let waiter: CheckedContinuation<Result<Data?, TransportError>, Never>? = state.withLock { s in
            guard !s.cancelled, s.end == nil else { return nil }
            if let waiter = s.waiter {
                s.waiter = nil
                return waiter
            }
            s.chunks.append(chunk)
            return nil
        }
        waiter?.resume(returning: .success(chunk))
    }

    /// Producer side (loop thread): the body is complete (`error == nil`) or failed.
    package func finish(_ error: TransportError?) {
        let waiter: CheckedContinuation<Result<Data?, TransportError>, Never>? = state.withLock { s in
            guard s.end == nil else { return nil }
            s.end = error.map { .failure($0) } ?? .success(())
            let waiter = s.waiter
            s.waiter = nil
            if waiter != nil { s.endDelivered = true }
            return waiter
        }
        waiter?.resume(returning: error.map { .failure($0) } ?? .success(nil))
    }

    /// Consumer side: the task iterating was cancelled or the stream was dropped. Aborts a running transfer.
    func cancel() {
        let (waiter, abort): (CheckedContinuation<Result<Data?, TransportError>, Never>?, Bool) = state.withLock { s in
            let abort = !s.cancelled && s.end == nil
            s.cancelled = true
            s.chunks.removeAll()
            s.head = 0
            let waiter = s.waiter
            s.waiter = nil
            return (waiter, abort)
        }
        waiter?.resume(returning: .failure(.cancelled(url: url)))
        if abort { cancelTransfer() }
    }

    /// Consumer side: the next chunk, nil at the end of the body.
    func next() async throws(TransportError) -> Data? {
        // A chunk already buffered (a burst of SSE events read at once) or the end already reached is returned
        // without suspending: a suspension resumed at once still goes through the executor's queue, once per chunk.
        if !Task.isCancelled, let ready = state.withLock({ Self.takeReady(&$0, url: url) }) { return try ready.get() }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Data?, TransportError>, Never>) in
                let taskCancelled = Task.isCancelled
                let (immediate, abort): (Result<Data?, TransportError>?, Bool) = state.withLock { s in
                    if taskCancelled && !s.cancelled {
                        let abort = s.end == nil
                        s.cancelled = true
                        s.chunks.removeAll()
                        s.head = 0
                        return (.failure(.cancelled(url: url)), abort)
                    }
                    if let ready = Self.takeReady(&s, url: url) { return (ready, false) }
                    s.waiter = continuation
                    return (nil, false)
                }
                if let immediate { continuation.resume(returning: immediate) }
                if abort { cancelTransfer() }
            }
        } onCancel: {
            cancel()
        }
        return try result.get()
    }

    /// What `next()` returns without waiting: `.cancelled`, the next buffered chunk, or the end; nil when it must wait.
    private static func takeReady(_ s: inout State, url: String) -> Result<Data?, TransportError>? {
        if s.cancelled { return .failure(.cancelled(url: url)) }
        if s.head < s.chunks.count {
            let chunk = s.chunks[s.head]
            s.head += 1
            if s.head == s.chunks.count {
                s.chunks.removeAll(keepingCapacity: true)
                s.head = 0
            }
            return .success(chunk)
        }
        if let end = s.end {
            // An error is thrown once; afterwards the sequence just ends, as iterators should.
            if s.endDelivered { return .success(nil) }
            s.endDelivered = true
            return end.map { nil }
        }
        return nil
    }
}
