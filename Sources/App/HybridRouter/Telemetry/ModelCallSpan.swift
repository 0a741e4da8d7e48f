package import HybridConfig
package import HybridCore
package import Tracing

/// One model call as the GenAI conventions' client span (`chat {model}`): the router's attempt spans and the
/// harness's eval samples (`hybrid eval --otlp-endpoint`) are both written here, so a sample and a routed call read
/// alike in a backend.
package struct ModelCallSpan {
    private var attributes = AttributeList(capacity: 24)
    private let model: String
    private var errorType: String?
    private var errorStatus = false
    private var kind: SpanKind = .client

    /// A call of the configured model `modelID` (`config` from the document; nil when the config lacks it).
    package init(modelID: String, config: ModelConfig?, tier: ModelTier?) {
        model = config?.model ?? modelID
        attributes.add(GenAINames.operationName, GenAINames.chat)
        attributes.add(GenAINames.providerName, config?.providerName)
        attributes.add(GenAINames.requestModel, model)
        attributes.add(HybridNames.modelID, modelID)
        attributes.add(HybridNames.modelTier, tier?.rawValue)
        // Phoenix infers an LLM span from `gen_ai.operation.name` too; said in its own (OpenInference) words as well.
        attributes.add(OpenInferenceNames.spanKind, OpenInferenceNames.llm)
    }

    /// The call's tokens (and whether they were estimated), its cost at the config's prices and the model that
    /// answered.
    package mutating func answered(usage: TokenUsage?, costUSD: Double?, responseModel: String?) {
        attributes.add(GenAINames.responseModel, responseModel)
        guard let usage else { return }
        attributes.add(GenAINames.usageInputTokens, usage.promptTokens)
        attributes.add(GenAINames.usageOutputTokens, usage.completionTokens)
        if usage.isEstimated { attributes.add(HybridNames.usageEstimated, true) }
        attributes.add(HybridNames.costUSD, costUSD)
    }

    /// The call failed with `errorType`; `status` false for a failure by design (a hedge's cancelled loser).
    package mutating func failed(_ errorType: String, status: Bool = true) {
        attributes.add(GenAINames.errorType, errorType)
        self.errorType = errorType
        errorStatus = status
    }

    /// The feature and prompt variant the call served.
    package mutating func routing(feature: String, variant: String?) {
        attributes.add(HybridNames.feature, feature)
        attributes.add(HybridNames.variant, variant)
    }

    /// The output checks the answer failed, by name.
    package mutating func failedChecks(_ names: [String]) {
        if !names.isEmpty { attributes.add(HybridNames.failedChecks, names) }
    }

    /// Served from a cache, not a model call: an internal span, not a client one.
    package mutating func fromCache() {
        kind = .internal
        attributes.add(HybridNames.cacheHit, true)
        attributes.add(OpenInferenceNames.spanKind, OpenInferenceNames.chain)
    }

    /// Adds the caller's own attributes (`hybrid.*`).
    package mutating func add(_ more: SpanAttributes) {
        more.forEach { name, value in attributes.set(name, value) }
    }

    mutating func add(_ name: String, _ value: String?) { attributes.add(name, value) }
    mutating func add(_ name: String, _ value: Bool?) { attributes.add(name, value) }
    mutating func add(_ name: String, _ value: [String]?) { attributes.add(name, value) }

    /// Writes the span, a child of `parent`, over `start` to `end`.
    package func write(
        to tracer: any Tracer, parent: ServiceContext, from start: DefaultTracerClock.Timestamp, to end: DefaultTracerClock.Timestamp
    ) {
        let span = tracer.startSpan("\(GenAINames.chat) \(model)", context: parent, ofKind: kind, at: start)
        span.attributes = attributes.attributes
        if errorStatus, let errorType { span.setStatus(SpanStatus(code: .error, message: errorType)) }
        span.end(at: end)
    }
}
