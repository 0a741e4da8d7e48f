import Glibc
import Synchronization

/// A one-shot latch a scripted response can wait on (`.waitFor`), fired by the test.
///
/// Backed by a pipe so a server thread can wait for it and for the client hanging up at the same time. Once
/// fired it stays fired; every response waiting on it continues.
public final class ServerSignal: Sendable {
    let readFD: Int32
    private let writeFD: Int32
    private let fired = Atomic<Bool>(false)

    /// A signal not yet fired.
    public init() {
        // Without a pipe the signal degrades to "already fired": responses never stall forever.
        let fds = Posix.pipe()
        readFD = fds?.read ?? -1
        writeFD = fds?.write ?? -1
        if readFD < 0 { fired.store(true, ordering: .relaxed) }
    }

    deinit {
        if readFD >= 0 { close(readFD) }
        if writeFD >= 0 { close(writeFD) }
    }

    /// Releases every response waiting on this signal, now and later.
    public func fire() {
        guard !fired.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
    }

    /// Whether `fire()` was called.
    public var isFired: Bool { fired.load(ordering: .acquiring) }
}
