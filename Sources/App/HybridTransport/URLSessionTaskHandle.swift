import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// A transfer's `URLSessionDataTask` once it exists, cancelled on the transport's task queue rather than the caller's
/// thread (FoundationNetworking cancels with a blocking `workQueue.sync`).
///
/// One lock orders the two events that race: either the cancellation comes first and the task, when it arrives, is
/// refused (never resumed), or the task is there and gets cancelled.
final class URLSessionTaskHandle: Sendable {
    private struct State {
        var task: URLSessionDataTask?
        var cancelRequested = false
    }

    private let state = Mutex(State())
    private let queue: DispatchQueue

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// Hands over the created task; false if the transfer was cancelled first (the caller must not resume it).
    func attach(_ task: URLSessionDataTask) -> Bool {
        state.withLock { s in
            guard !s.cancelRequested else { return false }
            s.task = task
            return true
        }
    }

    /// Cancels the task now if it exists, or refuses it when it arrives. Idempotent.
    func cancel() {
        let task: URLSessionDataTask? = state.withLock { s in
            guard !s.cancelRequested else { return nil }
            s.cancelRequested = true
            return s.task
        }
        if let task { queue.async { task.cancel() } }
    }
}
