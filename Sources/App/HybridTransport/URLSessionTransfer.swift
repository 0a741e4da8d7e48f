import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// One request in flight on `URLSessionTransport`: its task, the response head continuation, the body channel and
/// the timers that enforce `HTTPTimeouts`.
///
/// Delegate callbacks arrive one at a time (the session's queue is serial); timers and cancellation come from other
/// threads, so the outcome is decided under a lock and exactly once: the first failure recorded wins and every later
/// event for the task is ignored.
final class URLSessionTransfer: Sendable {
    /// The URL without query, fragment or userinfo: the only form that may appear in errors.
    let url: String
    private let rawURL: String
    private let timeouts: HTTPTimeouts
    private let maxBodyBytes: Int?
    private let hasBody: Bool
    private let isHead: Bool
    private let taskQueue: DispatchQueue
    private let handle: URLSessionTaskHandle
    private let channel: BodyChannel
    private let state = Mutex(State())

    private struct State {
        /// Resumed exactly once: with the head, or with the error that came first.
        var head: CheckedContinuation<Result<HTTPResponse, TransportError>, Never>?
        var headDelivered = false
        /// The first failure decided by us (timeout, limit, cancellation); later events are ignored.
        var failure: TransportError?
        var completed = false
        /// The request body reached the connection: the only sign URLSession gives that a connection is up.
        var requestSent = false
        var bodyBytes = 0
    }

    init(request: HTTPRequest, taskQueue: DispatchQueue) {
        let url = URLRedaction.redact(request.url)
        self.url = url
        rawURL = request.url
        timeouts = request.timeouts
        maxBodyBytes = request.maxBodyBytes
        hasBody = !(request.body?.isEmpty ?? true)
        isHead = request.method.uppercased() == "HEAD"
        self.taskQueue = taskQueue
        let handle = URLSessionTaskHandle(queue: taskQueue)
        self.handle = handle
        channel = BodyChannel(url: url) { handle.cancel() }
    }

    /// Records the head continuation, then creates (`makeTask`, which registers it) and resumes the task on the task
    /// queue and arms the timers. If a failure (a cancellation) was recorded first, the head gets it at once; a task
    /// created after that is never resumed and goes to `abandoned`.
    func start(
        head continuation: CheckedContinuation<Result<HTTPResponse, TransportError>, Never>,
        makeTask: @escaping @Sendable () -> URLSessionDataTask,
        abandoned: @escaping @Sendable (URLSessionDataTask) -> Void
    ) {
        let early: TransportError? = state.withLock { s in
            if let failure = s.failure { return failure }
            s.head = continuation
            return nil
        }
        if let early {
            continuation.resume(returning: .failure(early))
            return
        }
        arm(.connect, after: timeouts.connect)
        arm(.total, after: timeouts.total)
        // Without a body there is no "request sent" event, so the first-byte clock starts with the request.
        if !hasBody { arm(.firstByte, after: timeouts.firstByte) }
        taskQueue.async { [handle] in
            let task = makeTask()
            if handle.attach(task) { task.resume() } else { abandoned(task) }
        }
    }

    // MARK: Delegate events (serial)

    /// The body went out: the connection is up, and the first-byte clock starts.
    func didSendBody() {
        let first = state.withLock { s in
            defer { s.requestSent = true }
            return !s.requestSent
        }
        if first && hasBody { arm(.firstByte, after: timeouts.firstByte) }
    }

    /// The final head arrived; returns whether to let the body come.
    func didReceive(_ response: URLResponse) -> Bool {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let headers = Self.headers(of: response)
        let declared = response.expectedContentLength
        let tooLarge = !isHead && maxBodyBytes.map { declared > Int64($0) } == true
        if tooLarge, let limit = maxBodyBytes {
            fail(.bodyTooLarge(url: url, limit: limit))
            return false
        }
        let head = state.withLock { s in
            guard s.failure == nil, let head = s.head else { return nil as CheckedContinuation<Result<HTTPResponse, TransportError>, Never>? }
            s.head = nil
            s.headDelivered = true
            s.requestSent = true
            return head
        }
        guard let head else { return false }
        head.resume(returning: .success(HTTPResponse(status: status, headers: headers, body: HTTPBody(channel: channel))))
        return true
    }

    /// A body chunk, in wire order.
    func didReceive(_ data: Data) {
        let overLimit: Bool? = state.withLock { s in
            guard s.failure == nil else { return nil }
            s.bodyBytes += data.count
            return maxBodyBytes.map { s.bodyBytes > $0 } ?? false
        }
        switch overLimit {
        case false?: channel.yield(data)
        case true?: fail(.bodyTooLarge(url: url, limit: maxBodyBytes ?? 0))
        case nil: break
        }
    }

    /// The task ended; `error` is nil for a complete body.
    func didComplete(_ error: (any Error)?) {
        let (head, decided): (CheckedContinuation<Result<HTTPResponse, TransportError>, Never>?, Bool) = state.withLock { s in
            s.completed = true
            let head = s.head
            s.head = nil
            return (head, s.failure != nil)
        }
        guard !decided else { return }
        let mapped = error.map { map($0, headArrived: head == nil) }
        if let head {
            head.resume(returning: .failure(mapped ?? .failed(url: url, detail: "the connection ended without a response")))
        } else {
            channel.finish(mapped)
        }
    }

    // MARK: Failures we decide

    /// Records `error` as the outcome unless one was decided already, reports it and cancels the task (which
    /// closes a half-read connection).
    func fail(_ error: TransportError, when condition: (_ headDelivered: Bool, _ requestSent: Bool) -> Bool = { _, _ in true }) {
        let (decided, head, headDelivered): (Bool, CheckedContinuation<Result<HTTPResponse, TransportError>, Never>?, Bool) =
            state.withLock { s in
                guard !s.completed, s.failure == nil, condition(s.headDelivered, s.requestSent) else { return (false, nil, false) }
                s.failure = error
                let head = s.head
                s.head = nil
                return (true, head, s.headDelivered)
            }
        guard decided else { return }
        if let head {
            head.resume(returning: .failure(error))
        } else if headDelivered {
            channel.finish(error)
        }
        handle.cancel()
    }

    private func arm(_ phase: TransportError.TimeoutKind, after limit: Duration?) {
        guard let limit else { return }
        let (seconds, attoseconds) = limit.components
        let nanoseconds = max(0, seconds) * 1_000_000_000 + attoseconds / 1_000_000_000
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds))) { [weak self] in
            self?.timerFired(phase, after: limit)
        }
    }

    private func timerFired(_ phase: TransportError.TimeoutKind, after limit: Duration) {
        let error = TransportError.timedOut(url: url, phase: phase, after: limit)
        switch phase {
        case .total:
            fail(error)
        case .connect:
            // No head and no body sent: as far as URLSession lets us see, the connection is not up.
            fail(error) { headDelivered, requestSent in !headDelivered && !requestSent }
        case .firstByte:
            fail(error) { headDelivered, _ in !headDelivered }
        }
    }

    // MARK: Mapping

    private func map(_ error: any Error, headArrived: Bool) -> TransportError {
        let detail = Self.describe(error).replacingOccurrences(of: rawURL, with: url)
        guard let urlError = error as? URLError else { return .failed(url: url, detail: detail) }
        switch urlError.code {
        case .cancelled:
            return .cancelled(url: url)
        case .timedOut:
            return .timedOut(url: url, phase: .total, after: timeouts.total ?? .seconds(URLSessionTransport.sessionIdleLimit))
        case .unsupportedURL, .badURL:
            return .invalidURL(url)
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet, .secureConnectionFailed,
            .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
            .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return headArrived ? .failed(url: url, detail: detail) : .connectionFailed(url: url, detail: detail)
        default:
            return .failed(url: url, detail: detail)
        }
    }

    private static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        return "\(nsError.localizedDescription) (\(nsError.domain) \(nsError.code))"
    }

    /// Header fields sorted by name: URLSession hands them over as a dictionary, merged by name, in no order.
    private static func headers(of response: URLResponse) -> HTTPHeaders {
        guard let http = response as? HTTPURLResponse else { return HTTPHeaders() }
        let fields = http.allHeaderFields.compactMap { key, value -> (String, String)? in
            guard let name = key as? String else { return nil }
            return (name, value as? String ?? String(describing: value))
        }
        return HTTPHeaders(fields.sorted { $0.0.lowercased() < $1.0.lowercased() })
    }
}
