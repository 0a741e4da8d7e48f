import Foundation
public import HybridConfig
public import HybridCore
import HybridProviders
import Synchronization
package import CoreMetrics
package import Tracing

/// The runtime router an app embeds: one call per feature, served by the best model the config, privacy class,
/// budget, cooldowns and deadline allow.
///
/// For each request it reads the config in force (a `ConfigLoader` is read on every request, so a refreshed
/// config takes effect at the next one), picks the variant and priority order for this install's rollout bucket,
/// renders the feature's prompt, and walks the priority order: a model is skipped (with the reason recorded)
/// when it is unknown, beyond the privacy class, too small for the prompt, resting after a rate limit,
/// unavailable, or metered and over the feature's monthly budget; a failed model is followed by the next one
/// unless the routing policy says stop. Every answer is checked against the feature's output schema and
/// constraints (`OutputChecks`, as the eval runner does); a failed check the policy names falls back too. A call
/// may be cut by the per-attempt timeout (then the next model is tried) and the whole walk shares one deadline:
/// a call still running when it passes is cancelled and no further model is tried. The routing policy is the
/// feature's `routing` block over the document's, then the `RouterDefaults` given here.
///
/// Thread-safe and cheap to share: the only mutable state (cooldowns, built models) is behind a lock.
public final class Router: Sendable {
    struct State {
        /// Model id → instant until which it rests after a rate limit.
        var cooldowns: [String: ContinuousClock.Instant] = [:]
        /// Models built by a factory provider, with the configuration they were built from.
        var built: [String: (config: ModelConfig, model: any LanguageModel)] = [:]
    }

    let configSource: RouterConfigSource
    let provider: RouterModelProvider
    /// The stable id of this app install; it picks the rollout arm.
    public let installId: String
    let ledger: (any SpendLedger)?
    let cache: (any RouterCache)?
    let clock: RouterClock
    /// The app's routing block and input sizing.
    let policy: RouterDefaults
    /// The requests each feature hedged under `maxHedgedShare`.
    let hedgeShare: HedgeShare
    let onIncident: @Sendable (RouterIncident) -> Void
    /// Receives one `RouteEvent` per request; nil: no events are built.
    let eventSink: (any RouteEventSink)?
    /// Labels copied into every event (app version, OS, device class).
    let eventLabels: [String: String]
    /// The same labels as the config's conditions read them, parsed once.
    let targetLabels: TargetLabels
    /// Where spans and metrics go: the process's tracer and metrics backend unless given (tests).
    let telemetry: RouterTelemetry
    let state = Mutex(State())

    /// A router.
    ///
    /// - Parameters:
    ///   - config: a fixed document or a `ConfigLoader` read on every request.
    ///   - models: how model ids become models; by default the package's `ModelFactory`.
    ///   - installId: stable per install (not per user or per launch), so the rollout arm does not change.
    ///   - spendLedger: monthly spend counters; without one, budget caps are not enforced.
    ///   - cache: a response cache; nil disables caching.
    ///   - eventSink: receives one `RouteEvent` per `generate` or `stream` request (served, failed or declined);
    ///     nil sends none. Called on the request's path, so it must hand work off (the sinks in `HybridEvents` do).
    ///   - eventLabels: copied into every event: app version, OS, device class. Never put secrets here.
    ///   - onIncident: called for problems an operator must fix (a rejected API key); by default a line on
    ///     standard error.
    /// - Throws: `ConfigError` with the JSON path of every problem when a `.fixed` document does not validate (an
    ///   override naming an undefined condition, a label test with no test, an order naming an unknown model, …):
    ///   only validated documents reach a router. A `.loader` validates whatever it fetches. `policy.routing` is
    ///   checked the same way.
    public convenience init(
        config: RouterConfigSource,
        models: RouterModelProvider = .modelFactory(),
        installId: String,
        spendLedger: (any SpendLedger)? = nil,
        cache: (any RouterCache)? = nil,
        policy: RouterDefaults = RouterDefaults(),
        eventSink: (any RouteEventSink)? = nil,
        eventLabels: [String: String] = [:],
        onIncident: @escaping @Sendable (RouterIncident) -> Void = Router.reportToStandardError
    ) throws(ConfigError) {
        try ConfigValidator.validate(appRouting: policy.routing)
        self.init(
            unvalidated: try config.validated(), models: models, installId: installId, spendLedger: spendLedger,
            cache: cache, policy: policy, eventSink: eventSink, eventLabels: eventLabels,
            onIncident: onIncident)
    }

    /// A router over `config` as it is, without validating it: for this package's own tests of the walk's defensive
    /// paths (an unknown model, a tier beyond the privacy class) and for replays of documents already validated.
    /// `tracer` and `metricsFactory` replace the process's bootstrapped ones for this router (tests record into an
    /// in-memory pair of their own, since the bootstrap is once per process).
    package init(
        unvalidated config: RouterConfigSource,
        models: RouterModelProvider = .modelFactory(),
        installId: String,
        spendLedger: (any SpendLedger)? = nil,
        cache: (any RouterCache)? = nil,
        clock: RouterClock = .system,
        policy: RouterDefaults = RouterDefaults(),
        eventSink: (any RouteEventSink)? = nil,
        eventLabels: [String: String] = [:],
        hedgeShare: HedgeShare = HedgeShare(),
        tracer: (any Tracer)? = nil,
        metricsFactory: (any MetricsFactory)? = nil,
        onIncident: @escaping @Sendable (RouterIncident) -> Void = Router.reportToStandardError
    ) {
        self.telemetry = RouterTelemetry(tracer: tracer, metricsFactory: metricsFactory, captureContent: policy.captureMessageContent)
        self.hedgeShare = hedgeShare
        self.eventSink = eventSink
        self.eventLabels = eventLabels
        self.targetLabels = TargetLabels(eventLabels)
        self.configSource = config
        self.provider = models
        self.installId = installId
        self.ledger = spendLedger
        self.cache = cache
        self.clock = clock
        self.policy = policy
        self.onIncident = onIncident
    }

    /// The default incident handler: one line on standard error.
    public static let reportToStandardError: @Sendable (RouterIncident) -> Void = { incident in
        FileHandle.standardError.write(Data((incident.description + "\n").utf8))
    }

    /// Generates `feature`'s answer for `input`.
    ///
    /// - Parameters:
    ///   - input: values for the feature's template variables (its `inputs`).
    ///   - privacy: a stricter class than the feature's for this call; a looser one is ignored (it may only tighten).
    ///   - deadline: overrides the feature's `deadlineMs` for this call; the budget for the whole walk.
    ///   - truncateInputTo: cuts every input value to at most this many characters (adding "…") before rendering,
    ///     for inputs of unbounded length.
    ///   - labels: what the app knows of this request (`["kind": "long-form"]`), which the feature's input rules may
    ///     test as `label.kind`; over the router's own labels for this call.
    public func generate(
        feature: String,
        input: [String: String],
        privacy: PrivacyClass? = nil,
        deadline: Duration? = nil,
        truncateInputTo: Int? = nil,
        labels: [String: String] = [:]
    ) async throws(RouterError) -> RoutedResponse {
        let request = RequestTrace(
            feature: feature, input: input, privacy: privacy, deadline: deadline, truncateInputTo: truncateInputTo, labels: labels)
        return try await traced(request) { plan async throws(RouterError) in try await walkGenerate(plan) }.get()
    }

    /// Walks `plan`'s priority order until a model serves (one request, or one step of a conversation's turn).
    func walkGenerate(_ plan: Plan) async throws(RouterError) -> RoutedResponse {
        try await walk(plan, delivery: AnswerDelivery())
    }
}
