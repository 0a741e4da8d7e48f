import Foundation
import Synchronization

/// One thread that lives as long as the process and starts every child process.
///
/// `setpriv --pdeathsig KILL` ties a child's life to the *thread* that forked it, not the process. Swift's
/// cooperative pool runs on libdispatch workers that exit when idle, which would kill a healthy server seconds
/// after its first request. Forking from this never-exiting thread makes "parent died" mean "process died".
final class SpawnThread: Sendable {
    static let shared = SpawnThread()

    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let ready = DispatchSemaphore(value: 0)

    private init() {
        let thread = Thread { self.loop() }
        thread.name = "hybrid-spawn"
        thread.start()
    }

    private func loop() -> Never {
        while true {
            ready.wait()
            let job = jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            job?()
        }
    }

    /// Runs `process.run()` on the spawn thread and returns once it started (or failed to).
    func run(_ process: Process) async throws {
        let box = UncheckedProcess(process)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            jobs.withLock {
                $0.append {
                    do {
                        try box.process.run()
                        continuation.resume()
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
            }
            ready.signal()
        }
    }
}

/// Carries a `Process` to the spawn thread. Safe because the caller hands it over and does not touch it until
/// `run` returns.
private struct UncheckedProcess: @unchecked Sendable {
    let process: Process
    init(_ process: Process) { self.process = process }
}
