import CoreMetrics
import Tracing

/// Where a router's spans and metrics go: the tracer and metrics factory the router was given (tests inject an
/// in-memory pair so parallel tests never share the process's once-only bootstrap), else the process's
/// (`InstrumentationSystem.tracer`, `MetricsSystem.factory`), read at each request so a bootstrap made after the
/// router still applies.
struct RouterTelemetry: Sendable {
    /// The tracer given to the router; nil: the process's.
    var tracer: (any Tracer)?
    /// The metrics factory given to the router; nil: the process's.
    var metricsFactory: (any MetricsFactory)?
    /// Whether spans carry the prompt and the answer (`RouterDefaults.captureMessageContent`).
    var captureContent: Bool

    /// The telemetry of a request starting now; nil when no tracer and no metrics backend is installed, so a
    /// request then builds no attribute, name or handle at all (the no-op tracer and factory would discard them).
    func begin() -> RequestTelemetry? {
        let tracer = self.tracer ?? InstrumentationSystem.tracer
        let factory = metricsFactory ?? MetricsSystem.factory
        let tracing = !(tracer is NoOpTracer)
        let metering = !(factory is NOOPMetricsHandler)
        guard tracing || metering else { return nil }
        return RequestTelemetry(
            tracer: tracing ? tracer : nil, metrics: metering ? factory : nil, captureContent: captureContent)
    }
}

/// One request's (or conversation turn's) telemetry: its span, started once the plan names the route, and what
/// `finish` records from the result.
///
/// Attempt spans are written when the request ends, from `RouteAttempt`s the walk already keeps (start offset,
/// duration, outcome, usage): the walk itself gains no telemetry step, so a slow or failing exporter can only ever
/// cost the request the few microseconds of handing finished spans over. Every instant is the request's wall-clock
/// start plus an offset measured by the router's clock, so spans nest exactly (and, on a test's virtual clock, in
/// virtual time).
struct RequestTelemetry: Sendable {
    let tracer: (any Tracer)?
    let metrics: (any MetricsFactory)?
    let captureContent: Bool
    /// Nanoseconds since the epoch at the request's start.
    let wallStart = DefaultTracerClock.now.nanosecondsSinceEpoch
    /// The request's span; nil until started, and without a tracer.
    private(set) var span: (any Span)?
    /// Whether the span's name has its model.
    private var named = false

    init(tracer: (any Tracer)?, metrics: (any MetricsFactory)?, captureContent: Bool) {
        self.tracer = tracer
        self.metrics = metrics
        self.captureContent = captureContent
    }

    /// Starts the request's span, named as the conventions name an inference span: `chat {gen_ai.request.model}`
    /// (the route's first model), or `chat` until a route is planned (`finish` names it then: a conversation turn
    /// starts its span before its first step). A child of the app's current span, if any.
    mutating func startSpan(requestModel: String?) {
        guard let tracer, span == nil else { return }
        let name = requestModel.map { "\(GenAINames.chat) \($0)" } ?? GenAINames.chat
        span = tracer.startSpan(name, context: InstrumentationContext.current ?? .topLevel, ofKind: .client, at: instant(.zero))
        named = requestModel != nil
    }

    /// Names a span started before its route was known.
    func nameSpan(requestModel: String?) {
        guard !named, let span, let requestModel else { return }
        span.operationName = "\(GenAINames.chat) \(requestModel)"
    }

    /// Runs `body` with the request's span (if any) as the current context, so spans the models' own
    /// instrumentation starts (an HTTP client's) are its children.
    static func within<T>(
        _ telemetry: RequestTelemetry?, isolation: isolated (any Actor)? = #isolation, _ body: () async -> T
    ) async -> T {
        await within(span: telemetry?.span, body)
    }

    /// Runs `body` with `span` (if any) as the current context, on the caller's actor (a conversation's turn).
    static func within<T>(
        span: (any Span)?, isolation: isolated (any Actor)? = #isolation, _ body: () async -> T
    ) async -> T {
        guard let span else { return await body() }
        return await InstrumentationContext.$current.withValue(span.context, operation: body)
    }

    /// The instant `offset` after the request's start.
    func instant(_ offset: Duration) -> DefaultTracerClock.Timestamp {
        DefaultTracerClock.Timestamp(nanosecondsSinceEpoch: wallStart &+ UInt64(max(0, offset.nanoseconds)))
    }
}

extension Duration {
    /// Whole nanoseconds (what a span instant and a swift-metrics `Timer` take).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
    }
}
