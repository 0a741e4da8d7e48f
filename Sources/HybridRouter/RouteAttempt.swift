public import HybridCore

/// One step of a routed request: a model that served, was skipped, failed, answered but failed its output checks,
/// ran past its attempt timeout, or was cut at the deadline.
public struct RouteAttempt: Sendable, Equatable, CustomStringConvertible {
    /// What happened with the model.
    public enum Outcome: Sendable, Equatable {
        /// The model answered; its response is the one returned.
        case served
        /// A cached response of this model was returned without calling it.
        case servedFromCache
        /// The model was not called, for the reason given.
        case skipped(RouteSkipReason)
        /// The model was called and failed.
        case failed(GenerationError)
        /// The model was still working when the overall deadline passed; its call was cancelled.
        case cancelledAtDeadline
        /// The model answered, but the answer failed output checks the routing policy falls back on (listed).
        case failedChecks([FailedOutputCheck])
        /// The model was still working when its per-attempt timeout passed; the call was cancelled and the
        /// next model tried.
        case timedOut(after: Duration)
    }

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
    public init(
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
    public var calledModel: Bool {
        switch outcome {
        case .served, .failed, .failedChecks, .timedOut, .cancelledAtDeadline: true
        case .servedFromCache, .skipped: false
        }
    }

    public var description: String {
        let what: String =
            switch outcome {
            case .served: "served"
            case .servedFromCache: "served from cache"
            case .skipped(let reason): "skipped: \(reason)"
            case .failed(let error): "failed: \(error)"
            case .cancelledAtDeadline: "cancelled at the deadline"
            case .failedChecks(let failures): "failed checks: " + failures.map(\.description).joined(separator: ", ")
            case .timedOut(let limit): "timed out after its \(Self.ms(limit)) attempt timeout"
            }
        return "\(modelID) \(what) (at \(Self.ms(startedAt)), took \(Self.ms(duration)))"
    }

    static func ms(_ duration: Duration) -> String {
        let ms = duration.milliseconds
        return ms < 10 ? "\((ms * 100).rounded() / 100) ms" : "\(Int(ms.rounded())) ms"
    }
}
