import Foundation
import Synchronization

/// A sink that writes after `record` returns, and can finish that writing when the process exits.
protocol ExitDrainable: AnyObject, Sendable {
    /// Writes what `record` was handed and is not written yet; called once, as the process exits.
    func drainAtExit()
}

/// The sinks waited for when the process exits normally (returning from `main`, or `exit`): `record` stays off the
/// disk's path (a request does not wait for a write), and an app's last events still reach the file without a
/// `flush()`. A crash or SIGKILL can lose what the last few milliseconds recorded.
enum ExitDrain {
    private struct Entry: @unchecked Sendable {
        weak var sink: (any ExitDrainable)?
    }

    private static let entries = Mutex<[Entry]>([])
    private static let installed = Atomic<Bool>(false)

    /// Adds `sink` (held weakly) to those drained at exit; installs the `atexit` handler once.
    static func register(_ sink: any ExitDrainable) {
        entries.withLock { list in
            list.removeAll { $0.sink == nil }
            list.append(Entry(sink: sink))
        }
        if installed.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged {
            atexit { ExitDrain.drainAll() }
        }
    }

    /// Drains every registered sink still alive.
    static func drainAll() {
        let sinks = entries.withLock { $0.compactMap(\.sink) }
        for sink in sinks { sink.drainAtExit() }
    }
}
