import HybridCrypto
import Foundation
import Synchronization

/// A streamed dataset's SHA-256, computed on a thread of its own from a second descriptor of the file: hashing a
/// large file is linear in its size, and nothing before the first request needs the hash (the run record does, once
/// the file is checked). Read in 1 MiB chunks, so the file's bytes never sit in memory whole.
final class BackgroundHash: Sendable {
    private enum State {
        case running(waiters: [CheckedContinuation<Void, Never>])
        case done(Result<String, DatasetError>)
    }

    private let state = Mutex<State>(.running(waiters: []))
    private let finished = DispatchSemaphore(value: 0)

    /// Starts hashing `path`; `descriptor` (owned from now on, closed when done) must be open on it.
    init(path: String, descriptor: Int32) {
        let thread = Thread { [self] in
            let result = Self.hash(descriptor, path: path)
            close(descriptor)
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                guard case .running(let waiters) = state else { return [] }
                state = .done(result)
                return waiters
            }
            finished.signal()
            for waiter in waiters { waiter.resume() }
        }
        thread.name = "dataset-hash"
        thread.start()
    }

    /// The hash, waiting for it if needed (blocks the calling thread: a synchronous getter's path only).
    func value() throws(DatasetError) -> String {
        if let result = current { return try result.get() }
        finished.wait()
        finished.signal()
        return try current!.get()
    }

    /// The hash once computed, without blocking a thread meanwhile.
    func value() async throws(DatasetError) -> String {
        if let result = current { return try result.get() }
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                guard case .running(var waiters) = state else { return true }
                waiters.append(continuation)
                state = .running(waiters: waiters)
                return false
            }
            if ready { continuation.resume() }
        }
        return try current!.get()
    }

    private var current: Result<String, DatasetError>? {
        state.withLock { state in
            if case .done(let result) = state { return result }
            return nil
        }
    }

    private static func hash(_ descriptor: Int32, path: String) -> Result<String, DatasetError> {
        var hasher = SHA256()
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var offset: off_t = 0
        while true {
            let count = pread(descriptor, buffer.baseAddress, chunk, offset)
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable(path: path, detail: String(cString: strerror(errno))))
            }
            if count == 0 { break }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            offset += off_t(count)
        }
        return .success(ContentHash.hex(hasher.finalize()))
    }
}
