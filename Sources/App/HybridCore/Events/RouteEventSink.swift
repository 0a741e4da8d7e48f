/// Where the router sends one `RouteEvent` per request.
///
/// `record` is called on the request's path, so it must return at once: a sink that writes or uploads hands the
/// event to its own queue or task (`HybridEvents`' sinks then finish that work when the process exits normally). The
/// router depends only on this protocol; the sinks an app ships live in `HybridEvents`.
public protocol RouteEventSink: Sendable {
    /// Takes one event; never blocks and never throws (a sink that cannot keep an event counts it as dropped).
    func record(_ event: RouteEvent)
}
