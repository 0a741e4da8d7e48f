import Hummingbird
import Synchronization

/// Answers only requests addressed to the URL `hybrid view` printed: `Host` must be `127.0.0.1:PORT` or
/// `localhost:PORT`. A web page the user visits could otherwise point its own domain at 127.0.0.1 (DNS rebinding)
/// and read local results through the browser; such a request carries that domain in `Host` and gets 421.
struct HostCheckMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The port actually bound, set once the server listens (port 0 picks one).
    let port: BoundPort

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let bound = port.value, let host = request.head.authority,
            host == "127.0.0.1:\(bound)" || host == "localhost:\(bound)"
        else {
            return ViewRoutes.html(
                ViewRoutes.errorPage(
                    "This viewer answers only at the address it printed (http://127.0.0.1:PORT/); the request was for "
                        + "\(request.head.authority ?? "no host")."),
                status: .misdirectedRequest)
        }
        return try await next(request, context)
    }
}

/// The listening port, shared between the server's start callback and the middleware.
final class BoundPort: Sendable {
    private let stored = Mutex<Int?>(nil)
    var value: Int? { stored.withLock { $0 } }
    func set(_ port: Int) { stored.withLock { $0 = port } }
}
