/// The names the router's spans and metrics carry, all in one place.
///
/// The `gen_ai.*` and `error.type` names are the OpenTelemetry GenAI semantic conventions' (status: development).
/// They are spelled here rather than imported from swift-otel-semantic-conventions: that package declares its GenAI
/// names only under its `Experimental` trait, which it says requires pinning its minor version, and every app would
/// compile its generated sources; `TelemetryNamesTests` (a harness test, which may depend on it) holds each name
/// equal to the package's constant.
enum GenAINames {
    static let operationName = "gen_ai.operation.name"
    static let providerName = "gen_ai.provider.name"
    static let requestModel = "gen_ai.request.model"
    static let requestMaxTokens = "gen_ai.request.max_tokens"
    static let requestTemperature = "gen_ai.request.temperature"
    static let responseModel = "gen_ai.response.model"
    static let responseFinishReasons = "gen_ai.response.finish_reasons"
    static let usageInputTokens = "gen_ai.usage.input_tokens"
    static let usageOutputTokens = "gen_ai.usage.output_tokens"
    static let tokenType = "gen_ai.token.type"
    static let inputMessages = "gen_ai.input.messages"
    static let outputMessages = "gen_ai.output.messages"
    static let systemInstructions = "gen_ai.system_instructions"
    static let errorType = "error.type"
    static let toolName = "gen_ai.tool.name"
    static let toolCallID = "gen_ai.tool.call.id"
    /// Metric: seconds per model call (histogram).
    static let clientOperationDuration = "gen_ai.client.operation.duration"
    /// Metric: tokens per model call, by `gen_ai.token.type` (histogram).
    static let clientTokenUsage = "gen_ai.client.token.usage"
    /// `gen_ai.operation.name` of every router span: a routed request is a chat completion of rendered messages.
    static let chat = "chat"
    /// `gen_ai.operation.name` of a conversation's tool handler run.
    static let executeTool = "execute_tool"
    /// `gen_ai.token.type` values.
    static let input = "input"
    static let output = "output"
}

/// The router's own attribute, event and metric names: the routing facts the conventions have no name for.
enum HybridNames {
    static let feature = "hybrid.feature"
    static let variant = "hybrid.variant"
    static let configVersion = "hybrid.config.version"
    static let rolloutArm = "hybrid.rollout.arm"
    static let condition = "hybrid.condition"
    static let inputRule = "hybrid.input_rule"
    /// USD at the config's prices: the request's on the parent span, the call's on an attempt span.
    static let costUSD = "hybrid.cost.usd"
    static let cacheHit = "hybrid.cache.hit"
    static let hedged = "hybrid.hedged"
    static let modelID = "hybrid.model.id"
    static let modelTier = "hybrid.model.tier"
    static let attemptOutcome = "hybrid.attempt.outcome"
    /// True on the call a hedged race cancelled (its outcome is `lost_race`).
    static let attemptCancelled = "hybrid.attempt.cancelled"
    static let skipReason = "hybrid.skip_reason"
    static let failedChecks = "hybrid.failed_checks"
    static let usageEstimated = "hybrid.usage.estimated"
    static let conversationSteps = "hybrid.conversation.steps"
    /// Event on the request's span for a model the walk skipped without calling it.
    static let skippedEvent = "hybrid.attempt.skipped"
    /// Metric: calls made after the first one of a request (counter).
    static let fallbacksMetric = "hybrid.router.fallbacks"
    /// Metric: requests that raced a second model (counter).
    static let hedgeRacesMetric = "hybrid.router.hedge.races"
    /// Metric: USD spent at the config's prices (floating-point counter).
    static let costMetric = "hybrid.router.cost"
}

/// OpenInference's names, which Arize Phoenix reads: where Phoenix would infer them from the GenAI names it does,
/// but a routed request's own span is a chain over its calls, not one more LLM call (whose tokens Phoenix would count
/// twice).
enum OpenInferenceNames {
    static let spanKind = "openinference.span.kind"
    static let llm = "LLM"
    static let chain = "CHAIN"
    static let tool = "TOOL"
}
