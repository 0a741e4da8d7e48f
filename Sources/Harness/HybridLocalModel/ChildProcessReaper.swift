import Foundation
import Synchronization

/// Kills the child processes this process started (local model servers) when it exits, so none are orphaned.
///
/// Three layers, because each alone leaves a gap: children are spawned under `setpriv --pdeathsig KILL` where
/// available (covers `kill -9` of this process), an `atexit` hook kills them on a normal exit, and
/// `installSignalHandlers()` turns SIGINT/SIGTERM/SIGHUP into kill-children-then-exit (Ctrl-C).
public enum ChildProcessReaper {
    private static let pids = Mutex<Set<Int32>>([])
    private static let atexitInstalled = Mutex(false)

    /// Remembers `pid` so it is killed when this process exits.
    public static func register(_ pid: Int32) {
        pids.withLock { _ = $0.insert(pid) }
        let needsHook = atexitInstalled.withLock { installed -> Bool in
            defer { installed = true }
            return !installed
        }
        if needsHook {
            atexit { ChildProcessReaper.killAll() }
        }
    }

    /// Forgets `pid` (it was stopped on purpose).
    public static func unregister(_ pid: Int32) {
        pids.withLock { _ = $0.remove(pid) }
    }

    /// Sends SIGKILL to every registered child and waits for it. SIGKILL, not SIGTERM: a child spawned from a
    /// libdispatch thread inherits a blocked-signal mask and may never see SIGTERM. The wait, because a killed child
    /// nobody waits for stays a zombie (`llama-server <defunct>`) after we exit wherever the process it is handed to
    /// (PID 1 in a container) does not reap; ECHILD (Foundation reaped it first) is fine.
    public static func killAll() {
        let all = pids.withLock { pids -> Set<Int32> in
            defer { pids.removeAll() }
            return pids
        }
        for pid in all { kill(pid, SIGKILL) }
        for pid in all {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        }
    }

    private static let handlerSources = Mutex<[any DispatchSourceSignal]>([])

    /// Makes SIGINT, SIGTERM and SIGHUP kill the registered children and then exit with 128 + signal.
    ///
    /// For command-line tools; an app that owns its own signal handling calls `killAll()` itself instead.
    public static func installSignalHandlers() {
        handlerSources.withLock { sources in
            guard sources.isEmpty else { return }
            for sig in [SIGINT, SIGTERM, SIGHUP] {
                signal(sig, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
                source.setEventHandler {
                    killAll()
                    exit(128 + sig)
                }
                source.resume()
                sources.append(source)
            }
        }
    }
}
