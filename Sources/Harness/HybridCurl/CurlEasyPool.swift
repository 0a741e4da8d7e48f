import CCurl
import Synchronization

/// Easy handles kept between the transfers of one loop, reset to default options, so a request does not allocate
/// and zero a new handle (with its 16 KiB receive buffer) and free it again: against a fast server, creating and
/// freeing handles was a visible share of a sample's allocator time.
///
/// `curl_easy_reset` keeps only what the documentation lists (live connections, session ID, DNS and cookie caches,
/// which belong to the multi handle here anyway); every option of the next transfer is set again by
/// `CurlTransfer.configure`.
final class CurlEasyPool: Sendable {
    /// A handle in the pool: touched by one thread at a time, the one that took it.
    private struct Handle: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
    }

    private let spare = Mutex<[Handle]>([])
    private let capacity: Int

    /// A pool keeping at most `capacity` idle handles.
    init(capacity: Int) {
        self.capacity = capacity
    }

    deinit {
        for handle in spare.withLock({ $0 }) { curl_easy_cleanup(handle.pointer) }
    }

    /// A handle with default options: a kept one, or a new one (nil when libcurl cannot make one).
    func take() -> UnsafeMutableRawPointer? {
        if let handle = spare.withLock({ $0.popLast() }) { return handle.pointer }
        return curl_easy_init()
    }

    /// Resets `easy` and keeps it for the next transfer, or frees it when the pool is full. `easy` must no longer
    /// be in a multi handle.
    func recycle(_ easy: UnsafeMutableRawPointer) {
        curl_easy_reset(easy)
        let handle = Handle(pointer: easy)
        let kept = spare.withLock { spare in
            guard spare.count < capacity else { return false }
            spare.append(handle)
            return true
        }
        if !kept { curl_easy_cleanup(easy) }
    }
}
