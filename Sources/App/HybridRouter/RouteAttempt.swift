public import HybridCore

/// One step of a routed request: a model that served, was skipped, failed, answered but failed its output checks,
/// ran past its attempt timeout, was cut at the deadline, or lost a hedged race.
public struct RouteAttempt: Sendable, Equatable, CustomStringConvertible {
    /// The configured model id.
    public var modelID: String
    /// Where the model runs (nil when the model is unknown).
    public var tier: ModelTier?
    /// Served, served from cache, skipped, failed or cancelled at the deadline.
    public var outcome: Outcome
    /// When the attempt started, measured from the start of the request.
    public var startedAt: Duration
    /// How long the attempt took (zero for skips decided without a probe).
    public var duration: Duration
    /// Tokens the model reported for an answer (served or failing its checks); nil when it gave none.
    public var usage: TokenUsage?

    /// Creates an attempt; `startedAt` is measured from the start of the routed request.
    init(
        modelID: String, tier: ModelTier?, outcome: Outcome, startedAt: Duration, duration: Duration,
        usage: TokenUsage? = nil
    ) {
        self.modelID = modelID
        self.tier = tier
        self.outcome = outcome
        self.startedAt = startedAt
        self.duration = duration
        self.usage = usage
    }

    /// Whether the model was called (served, failed, failed its checks, timed out or was cut).
    package var calledModel: Bool {
        outcome.kind != .servedFromCache && outcome.kind != .skipped
    }

    /// The model, what happened and when, as error messages list attempts.
    public var description: String {
        "\(modelID) \(outcome) (at \(Self.ms(startedAt)), took \(Self.ms(duration)))"
    }

    static func ms(_ duration: Duration) -> String {
        let ms = duration.milliseconds
        return ms < 10 ? "\((ms * 100).rounded() / 100) ms" : "\(Int(ms.rounded())) ms"
    }
}
