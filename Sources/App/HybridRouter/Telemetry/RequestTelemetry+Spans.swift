import HybridConfig
import HybridCore
import Tracing

extension RequestTelemetry {
    /// Records the finished request: its span's attributes and end, a child span per model call (or cache hit),
    /// an event per skipped model, and the metrics.
    mutating func finish(_ summary: RouteSummary, elapsed: Duration) {
        if let metrics { record(summary, into: metrics) }
        guard tracer != nil else { return }
        startSpan(requestModel: summary.requestModel)  // planning failed: the span starts only now
        guard let span else { return }
        for attempt in summary.attempts {
            if attempt.outcome.kind == .skipped {
                span.addEvent(skipEvent(attempt))
            } else {
                attemptSpan(attempt, parent: span, summary: summary)
            }
        }
        span.attributes = requestAttributes(summary)
        if let errorType = summary.errorType { span.setStatus(SpanStatus(code: .error, message: errorType)) }
        span.end(at: instant(elapsed))
    }

    /// The request span's attributes: the conventions' for the whole routed operation (every call's tokens, the
    /// serving model), then the routing facts.
    private func requestAttributes(_ summary: RouteSummary) -> SpanAttributes {
        var attributes = SpanAttributes()
        let serving = summary.servingModelID.flatMap { summary.document.models[$0] }
        attributes[GenAINames.operationName] = GenAINames.chat
        attributes[GenAINames.providerName] = serving?.providerName
        attributes[GenAINames.requestModel] = summary.requestModel
        if let response = summary.response {
            attributes[GenAINames.responseModel] = response.providerModel ?? serving?.model ?? response.servedBy.id
            attributes[GenAINames.responseFinishReasons] = [response.finishReason.conventionName]
        }
        if let usage = summary.totalUsage {
            attributes[GenAINames.usageInputTokens] = usage.promptTokens
            attributes[GenAINames.usageOutputTokens] = usage.completionTokens
        }
        attributes[GenAINames.requestMaxTokens] = summary.plan?.request.options.maxOutputTokens
        attributes[GenAINames.requestTemperature] = summary.plan?.request.options.temperature
        attributes[GenAINames.errorType] = summary.errorType
        addRoutingFacts(summary, to: &attributes)
        if captureContent, let plan = summary.plan { ContentCapture.add(plan.request, summary.response, to: &attributes) }
        return attributes
    }

    private func addRoutingFacts(_ summary: RouteSummary, to attributes: inout SpanAttributes) {
        attributes[HybridNames.feature] = summary.feature
        attributes[HybridNames.configVersion] = summary.document.version
        attributes[HybridNames.variant] = summary.plan?.variant
        attributes[HybridNames.rolloutArm] = summary.plan?.arm
        attributes[HybridNames.condition] = summary.plan?.condition
        attributes[HybridNames.inputRule] = summary.plan?.inputRule
        attributes[HybridNames.costUSD] = summary.costUSD
        attributes[HybridNames.cacheHit] = summary.fromCache
        if summary.attempts.contains(where: { $0.outcome.kind == .lostRace }) { attributes[HybridNames.hedged] = true }
        attributes[HybridNames.conversationSteps] = summary.steps
    }

    /// One model call (or cache hit) as a child span over the attempt's own time.
    private func attemptSpan(_ attempt: RouteAttempt, parent: any Span, summary: RouteSummary) {
        guard let tracer else { return }
        let config = summary.document.models[attempt.modelID]
        let model = config?.model ?? attempt.modelID
        let cacheHit = attempt.outcome.kind == .servedFromCache
        let span = tracer.startSpan(
            "\(GenAINames.chat) \(model)", context: parent.context, ofKind: cacheHit ? .internal : .client,
            at: instant(attempt.startedAt))
        var attributes = SpanAttributes()
        attributes[GenAINames.operationName] = GenAINames.chat
        attributes[GenAINames.providerName] = config?.providerName
        attributes[GenAINames.requestModel] = model
        attributes[HybridNames.modelID] = attempt.modelID
        attributes[HybridNames.modelTier] = attempt.tier?.rawValue
        attributes[HybridNames.attemptOutcome] = attempt.outcomeName
        if cacheHit { attributes[HybridNames.cacheHit] = true }
        if attempt.outcome.kind == .served, let response = summary.response {
            attributes[GenAINames.responseModel] = response.providerModel ?? model
        }
        addUsage(of: attempt, config: config, to: &attributes)
        addFailure(of: attempt, to: &attributes, span: span)
        span.attributes = attributes
        span.end(at: instant(attempt.startedAt + attempt.duration))
    }

    private func addUsage(of attempt: RouteAttempt, config: ModelConfig?, to attributes: inout SpanAttributes) {
        guard attempt.calledModel, let usage = attempt.usage else { return }
        attributes[GenAINames.usageInputTokens] = usage.promptTokens
        attributes[GenAINames.usageOutputTokens] = usage.completionTokens
        if usage.isEstimated { attributes[HybridNames.usageEstimated] = true }
        attributes[HybridNames.costUSD] = config?.pricing?.cost(of: usage)
    }

    /// `error.type` and an error status for a call that failed; a lost race is marked cancelled without an error
    /// status, since cancelling it was the router's choice, not a fault.
    private func addFailure(of attempt: RouteAttempt, to attributes: inout SpanAttributes, span: any Span) {
        guard let errorType = attempt.errorType else { return }
        attributes[GenAINames.errorType] = errorType
        if attempt.outcome.kind == .lostRace {
            attributes[HybridNames.attemptCancelled] = true
            return
        }
        if !attempt.outcome.checkFailures.isEmpty {
            attributes[HybridNames.failedChecks] = attempt.outcome.checkFailures.map(\.name)
        }
        span.setStatus(SpanStatus(code: .error, message: errorType))
    }

    /// A model the walk did not call, and why.
    private func skipEvent(_ attempt: RouteAttempt) -> SpanEvent {
        var attributes: SpanAttributes = [HybridNames.modelID: .string(attempt.modelID)]
        attributes[HybridNames.skipReason] = attempt.outcome.skipReason?.name
        return SpanEvent(name: HybridNames.skippedEvent, at: instant(attempt.startedAt), attributes: attributes)
    }
}
