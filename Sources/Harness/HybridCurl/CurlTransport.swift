public import HybridTransport

// Design: CurlTransport drives libcurl's MULTI interface from ONE dedicated thread per transport (not Swift's
// cooperative pool, which has only a few threads and must never block). The multi handle keeps a connection
// cache, so sequential and concurrent requests to the same host reuse keep-alive connections, and one thread
// multiplexes any number of transfers with `curl_multi_socket_action` over one `poll` of the sockets curl asked for
// (`CurlSocketWatch`). Callers hand new transfers and cancellations to the loop through a lock-protected inbox plus a
// wake-up pipe (written only while the loop sleeps); only the loop thread touches curl handles. The loop is also a
// `TaskExecutor` (`taskExecutor`) that runs Swift jobs between two turns.
// `execute` suspends on a continuation the loop resumes when the final status line and headers arrived
// (1xx heads are skipped); body chunks go, in wire order, into a channel the returned `AsyncThrowingStream` reads.
// Cancellation (the awaiting task cancelled, the body iterated from a cancelled task, or the stream dropped)
// queues a cancel: the loop removes the easy handle from the multi, which closes a half-read connection, and
// `.cancelled` is thrown. Timeouts: connect and total are curl's CONNECTTIMEOUT_MS/TIMEOUT_MS (the phase is told
// apart by whether the request had been sent); curl has no first-byte limit, so the loop checks, on every wake-up,
// transfers whose request went out (PREREQFUNCTION) without a response byte since, and wakes no later than the
// earliest such deadline. `maxBodyBytes` is checked against Content-Length before the head is delivered and
// against the running byte count; breaking it aborts the transfer. Errors carry only redacted URLs, never headers.

/// The production `HTTPTransport`: HTTP/1.1 and HTTP/2 over libcurl, many transfers on one background thread.
///
/// Create one per process (or use `shared`) so connections are reused; each instance owns a thread and a
/// connection cache. Dropping an instance lets its running transfers finish before the thread ends.
public final class CurlTransport: HTTPTransport {
    /// A process-wide instance with default settings.
    public static let shared = CurlTransport()

    private let loop: CurlMultiLoop

    /// Starts the transport's loop thread. `maxConnections` is how many idle connections are kept for reuse
    /// (CURLMOPT_MAXCONNECTS); keep it at least as high as the number of requests you run at once.
    public init(maxConnections: Int = 64) {
        loop = CurlMultiLoop(maxConnections: max(1, maxConnections), name: "CurlTransport")
    }

    deinit {
        loop.shutdown()
    }

    /// The transport's loop thread as a task executor. Work that mostly waits on this transport's requests (an
    /// eval's samples) runs cheapest under `withTaskExecutorPreference(transport.taskExecutor)`: a response then
    /// resumes its task on the thread that received it, and the next request is added without waking that thread.
    /// Keep CPU-heavy or blocking work off it: it delays every transfer in flight.
    public var taskExecutor: any TaskExecutor { loop }

    /// Sends `request`; returns when the final status line and headers arrived. See `HTTPTransport.execute`.
    public func execute(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let transfer = try CurlTransfer(request: request, loop: loop)
        if Task.isCancelled { throw .cancelled(url: transfer.url) }
        let loop = self.loop
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<HTTPResponse, TransportError>, Never>) in
                transfer.setHeadContinuation(continuation)
                loop.submit(transfer)
            }
        } onCancel: {
            loop.cancel(transfer)
        }
        return try result.get()
    }
}
