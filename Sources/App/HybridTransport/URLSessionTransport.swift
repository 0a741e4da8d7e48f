// Design: one URLSession per transport, with one delegate (`URLSessionDelegateRouter`) that hands each callback
// to the `URLSessionTransfer` of its task. The delegate-based data task is what streams on every platform:
// `didReceive data` fires per chunk as it arrives (checked on Linux: chunks 20 ms apart arrive 20 ms apart), whereas
// `data(for:)` buffers to the end and `bytes(for:)` does not exist in FoundationNetworking. The session's own
// timeouts are set out of the way and the transfer enforces `HTTPTimeouts` with its own timers, because
// URLSession has only an idle timeout and a resource timeout, no connect or first-byte limit. Cancellation cancels
// the task, which closes a half-read connection. Tasks are created, resumed and cancelled on a serial dispatch queue,
// never on Swift's cooperative pool: FoundationNetworking does those with `workQueue.sync` on the session's queue,
// and under 200 concurrent requests that blocked both pool threads of a 2-core machine for seconds, stalling every
// other task in the process (measured in the conformance suite). The body reuses `BodyChannel`, so a reader cancelled between two
// chunks gets `.cancelled` exactly as with `CurlTransport`.
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An `HTTPTransport` over Foundation's `URLSession`: the default on Apple platforms, where libcurl is not in the
/// SDK, and usable on Linux through FoundationNetworking.
///
/// Create one per process (or use `shared`) so connections are reused; each instance owns a session and its
/// connection pool. Limits of URLSession that callers can see (documented in docs/apple-platforms.md):
/// response headers come back merged by name (`allHeaderFields` is a dictionary), and the transport cannot
/// observe the moment a connection is up, so for a request without a body a stall before the response head is
/// reported against the connect limit when that limit is the earlier one.
public final class URLSessionTransport: HTTPTransport {
    /// A process-wide instance with default settings.
    public static let shared = URLSessionTransport()

    private let session: URLSession
    private let router: URLSessionDelegateRouter
    /// Where tasks are created, resumed and cancelled (see the design note above).
    private let taskQueue = DispatchQueue(label: "URLSessionTransport.tasks")

    /// Creates a session of its own. `maxConnectionsPerHost` bounds the connections opened to one host; requests
    /// beyond it wait for a free connection.
    public init(maxConnectionsPerHost: Int = 64) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = max(1, maxConnectionsPerHost)
        // Responses are streamed to the caller and never cached; cookies are not ours to keep.
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        // The transfer enforces `HTTPTimeouts`; the session's own limits must never fire first.
        configuration.timeoutIntervalForRequest = Self.sessionIdleLimit
        configuration.timeoutIntervalForResource = Self.sessionIdleLimit
        let queue = OperationQueue()
        queue.name = "URLSessionTransport"
        // One callback at a time per session, so a transfer sees its events in order.
        queue.maxConcurrentOperationCount = 1
        router = URLSessionDelegateRouter()
        session = URLSession(configuration: configuration, delegate: router, delegateQueue: queue)
    }

    deinit {
        // Running transfers finish; the session then releases its delegate.
        session.finishTasksAndInvalidate()
    }

    /// A week: far beyond any `HTTPTimeouts` a caller sets, so only the transfer's own timers decide.
    static let sessionIdleLimit: TimeInterval = 7 * 24 * 3600

    /// Sends `request`; returns when the final status line and headers arrived. See `HTTPTransport.execute`.
    public func execute(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let urlRequest = try URLRequestBuilder.build(request)
        let transfer = URLSessionTransfer(request: request, taskQueue: taskQueue)
        if Task.isCancelled { throw .cancelled(url: transfer.url) }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<HTTPResponse, TransportError>, Never>) in
                // The closures hold the transport: its deinit invalidates the session, after which creating a task
                // is a fatal error in FoundationNetworking, so it must outlive every task still to be created.
                transfer.start(head: continuation) { [self] in
                    let task = session.dataTask(with: urlRequest)
                    router.register(transfer, for: task)
                    return task
                } abandoned: { [self] task in
                    router.unregister(task)
                }
            }
        } onCancel: {
            transfer.fail(.cancelled(url: transfer.url))
        }
        return try result.get()
    }
}
