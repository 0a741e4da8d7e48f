/// An in-process HTTP/1.1 server on 127.0.0.1 (OS-chosen port) that answers with scripted responses.
///
/// Tests and benchmarks use it to replay provider wire formats byte for byte and to inject faults (delays,
/// stalls, truncated bodies). One thread per connection with blocking sockets: clients reuse keep-alive
/// connections, so this stays fast (thousands of requests per second). Always call `stop()` (e.g. in a `defer`).
package final class LoopbackHTTPServer: Sendable {
    private let core: ServerCore

    /// Starts listening at once. `handler` runs for each request on Swift's pool while the connection thread
    /// waits. `recordRequests: false` keeps memory flat in long benchmarks (`requests` then stays empty).
    package init(
        recordRequests: Bool = true,
        handler: @escaping @Sendable (RecordedRequest) async -> ScriptedResponse
    ) throws(LoopbackServerError) {
        core = try ServerCore(handler: .async(handler), recordRequests: recordRequests)
        core.startAccepting()
    }

    private init(core: ServerCore) {
        self.core = core
        core.startAccepting()
    }

    /// A server whose synchronous `handler` runs on the connection thread itself: no task hop per request,
    /// for benchmarks.
    package static func synchronous(
        recordRequests: Bool = true,
        handler: @escaping @Sendable (RecordedRequest) -> ScriptedResponse
    ) throws(LoopbackServerError) -> LoopbackHTTPServer {
        LoopbackHTTPServer(core: try ServerCore(handler: .immediate(handler), recordRequests: recordRequests))
    }

    deinit {
        core.stop()
    }

    /// The TCP port the OS chose.
    package var port: Int { core.port }

    /// `http://127.0.0.1:PORT`, without a trailing slash.
    package var baseURL: String { "http://127.0.0.1:\(core.port)" }

    /// Every request received so far, in arrival order (empty when not recording).
    package var requests: [RecordedRequest] { core.state.withLock { $0.requests } }

    /// How many requests arrived (counted even when not recording).
    package var requestCount: Int { core.state.withLock { $0.requestCount } }

    /// How many TCP connections were accepted: fewer than `requestCount` means keep-alive reuse.
    package var connectionsAccepted: Int { core.state.withLock { $0.connectionsAccepted } }

    /// How many responses were cut short because the client hung up (seen while writing or while a `.delay` or
    /// `.waitFor` part was pending). This is how a test sees that a cancelled client really closed the connection.
    package var abortedResponses: Int { core.state.withLock { $0.abortedResponses } }

    /// Polls `condition` until it holds or `timeout` passes; returns whether it held. For causal waits in tests
    /// ("the server saw the disconnect"), with a generous timeout.
    package func waitUntil(
        timeout: Duration = .seconds(10),
        _ condition: @Sendable (LoopbackHTTPServer) -> Bool
    ) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition(self) {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    /// Stops listening and closes every client connection. Does not wait for handler tasks; never blocks.
    package func stop() {
        core.stop()
    }
}
