import Foundation

/// Runs blocking work (waiting for a child process, reading a pipe to its end) on a thread of its own.
///
/// Swift's cooperative pool has as many threads as cores (two here). A test that blocks one of them for seconds
/// starves every other test running in parallel, and their timeouts and deadlines then fire for no reason of their
/// own. Blocking waits in tests go through this instead.
package enum BlockingWork {
    /// Runs `body` on a new thread and returns (or rethrows) its result without blocking a cooperative-pool thread.
    package static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                do {
                    continuation.resume(returning: try body())
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            thread.name = "hybrid-test-blocking"
            thread.start()
        }
    }
}
