import HybridConfig
import HybridCore

/// What a finished request (or conversation turn) tells its telemetry: the plan, every attempt, the answer or the
/// error. Built only when telemetry is on.
struct RouteSummary {
    var feature: String
    var document: HybridConfigDocument
    /// nil when the request failed before a plan existed (unknown feature, input too short).
    var plan: Plan?
    var attempts: [RouteAttempt]
    var response: GenerationResponse?
    var totalUsage: TokenUsage?
    var costUSD: Double?
    var fromCache = false
    /// The conventions' `error.type`: the field event's error kind (`RouterError.eventKind`); nil when served.
    var errorType: String?
    /// A conversation turn: its model calls (tool rounds); nil for a single request.
    var steps: Int?

    /// A `generate` or `stream` request's summary.
    init(_ result: Result<RoutedResponse, RouterError>, feature: String, document: HybridConfigDocument, plan: Plan?) {
        self.feature = feature
        self.document = document
        self.plan = plan
        switch result {
        case .success(let routed):
            attempts = routed.attempts
            response = routed.response
            totalUsage = routed.totalUsage
            costUSD = routed.totalCostUSD
            fromCache = routed.fromCache
        case .failure(let error):
            attempts = error.attempts
            errorType = error.eventKind.isEmpty ? "_OTHER" : error.eventKind
            costUSD = Self.cost(of: attempts, in: document)
        }
    }

    /// A conversation turn's summary: every step's attempts (timed from the turn's start) and the last answer.
    init(turn result: Result<ConversationTurn, ConversationError>, feature: String, document: HybridConfigDocument, plan: Plan?) {
        self.feature = feature
        self.document = document
        self.plan = plan
        let steps: [ConversationStep]
        switch result {
        case .success(let turn):
            steps = turn.steps
            response = turn.response
            fromCache = turn.steps.last?.routed.fromCache ?? false
            attempts = steps.flatMap(\.routed.attempts)
        case .failure(let error):
            steps = error.steps
            attempts = steps.flatMap(\.routed.attempts) + (error.routerError?.attempts ?? [])
            errorType = error.routerError.map { $0.eventKind.isEmpty ? "_OTHER" : $0.eventKind } ?? error.eventKind
        }
        self.steps = steps.count
        totalUsage = steps.reduce(TokenUsage(promptTokens: 0, completionTokens: 0)) { total, step in
            TokenUsage(
                promptTokens: total.promptTokens + step.routed.totalUsage.promptTokens,
                completionTokens: total.completionTokens + step.routed.totalUsage.completionTokens)
        }
        costUSD = Self.cost(of: attempts, in: document)
    }

    /// The model whose answer was returned, or the one the request was trying to reach: the serving attempt's,
    /// else the last model called, else the route's first.
    var servingModelID: String? {
        if let served = attempts.last(where: { $0.outcome.kind == .served || $0.outcome.kind == .servedFromCache }) {
            return served.modelID
        }
        return attempts.last(where: \.calledModel)?.modelID ?? plan?.priority.first
    }

    /// The route's first model, as the provider names it: the request's `gen_ai.request.model`.
    var requestModel: String? { plan?.requestModel }

    /// Every call's cost at the config's prices; nil when a model called has no prices.
    static func cost(of attempts: [RouteAttempt], in document: HybridConfigDocument) -> Double? {
        var total = 0.0
        for attempt in attempts where attempt.calledModel {
            guard let usage = attempt.usage else { continue }
            guard let cost = document.models[attempt.modelID]?.pricing?.cost(of: usage) else { return nil }
            total += cost
        }
        return total
    }
}

extension RouteAttempt {
    /// The outcome in the snake_case of attribute values (`lost_race`).
    var outcomeName: String {
        switch outcome.kind {
        case .servedFromCache: "served_from_cache"
        case .failedChecks: "failed_checks"
        case .timedOut: "timed_out"
        case .cancelledAtDeadline: "cancelled_at_deadline"
        case .lostRace: "lost_race"
        default: outcome.kind.rawValue
        }
    }

    /// The conventions' `error.type` of a call that did not serve: the model's error kind, or what the router cut
    /// it for. A lost race is `cancelled` (the router's own decision, so its span's status stays unset).
    var errorType: String? {
        switch outcome.kind {
        case .failed, .interrupted: outcome.error?.kind.rawValue ?? "_OTHER"
        case .timedOut: GenerationError.Kind.timeout.rawValue
        case .cancelledAtDeadline: "deadline_exceeded"
        case .failedChecks: "output_checks_failed"
        case .lostRace: GenerationError.Kind.cancelled.rawValue
        default: nil
        }
    }
}

extension ModelConfig {
    /// The conventions' `gen_ai.provider.name`: their well-known value where there is one (`openai`, `anthropic`,
    /// `gcp.gemini`), else the provider kind.
    var providerName: String {
        switch kind {
        case .openAICompatible: "openai"
        case .anthropic: "anthropic"
        case .gemini: "gcp.gemini"
        case .ollama: "ollama"
        case .llamaCpp: "llama_cpp"
        case .appleFoundationModels: "apple.foundation_models"
        case .applePrivateCloudCompute: "apple.private_cloud_compute"
        }
    }
}

extension FinishReason {
    /// The conventions' finish reason value.
    var conventionName: String {
        switch self {
        case .stop: "stop"
        case .length: "length"
        case .contentFilter: "content_filter"
        case .toolCall: "tool_call"
        case .other(let reason): reason
        }
    }
}

extension Plan {
    /// The route's first model as the provider names it (the config's `model`, else its id): what the
    /// conventions call the request's model, since the walk asks it first.
    var requestModel: String? {
        priority.first.map { document.models[$0]?.model ?? $0 }
    }
}

extension ConversationError {
    /// `error.type` of a turn that failed outside routing.
    var eventKind: String {
        if isStepLimit { return "step_limit" }
        return isDeadline ? "deadline_exceeded" : "busy"
    }
}
