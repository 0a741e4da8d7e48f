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
        var attributes = AttributeList(capacity: 24)
        let serving = summary.servingModelID.flatMap { summary.document.models[$0] }
        attributes.add(GenAINames.operationName, GenAINames.chat)
        attributes.add(GenAINames.providerName, serving?.providerName)
        attributes.add(GenAINames.requestModel, summary.requestModel)
        if let response = summary.response {
            attributes.add(GenAINames.responseModel, response.providerModel ?? serving?.model ?? response.servedBy.id)
            attributes.add(GenAINames.responseFinishReasons, [response.finishReason.conventionName])
        }
        if let usage = summary.totalUsage {
            attributes.add(GenAINames.usageInputTokens, usage.promptTokens)
            attributes.add(GenAINames.usageOutputTokens, usage.completionTokens)
        }
        attributes.add(GenAINames.requestMaxTokens, summary.plan?.request.options.maxOutputTokens)
        attributes.add(GenAINames.requestTemperature, summary.plan?.request.options.temperature)
        attributes.add(GenAINames.errorType, summary.errorType)
        addRoutingFacts(summary, to: &attributes)
        if captureContent, let plan = summary.plan { ContentCapture.add(plan.request, summary.response, to: &attributes) }
        return attributes.attributes
    }

    private func addRoutingFacts(_ summary: RouteSummary, to attributes: inout AttributeList) {
        attributes.add(HybridNames.feature, summary.feature)
        attributes.add(HybridNames.configVersion, summary.document.version)
        attributes.add(HybridNames.variant, summary.plan?.variant)
        attributes.add(HybridNames.rolloutArm, summary.plan?.arm)
        attributes.add(HybridNames.condition, summary.plan?.condition)
        attributes.add(HybridNames.inputRule, summary.plan?.inputRule)
        attributes.add(HybridNames.costUSD, summary.costUSD)
        attributes.add(HybridNames.cacheHit, summary.fromCache)
        if summary.attempts.contains(where: { $0.outcome.kind == .lostRace }) { attributes.add(HybridNames.hedged, true) }
        attributes.add(HybridNames.conversationSteps, summary.steps)
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
        var attributes = AttributeList(capacity: 16)
        attributes.add(GenAINames.operationName, GenAINames.chat)
        attributes.add(GenAINames.providerName, config?.providerName)
        attributes.add(GenAINames.requestModel, model)
        attributes.add(HybridNames.modelID, attempt.modelID)
        attributes.add(HybridNames.modelTier, attempt.tier?.rawValue)
        attributes.add(HybridNames.attemptOutcome, attempt.outcomeName)
        if cacheHit { attributes.add(HybridNames.cacheHit, true) }
        if attempt.outcome.kind == .served, let response = summary.response {
            attributes.add(GenAINames.responseModel, response.providerModel ?? model)
        }
        addUsage(of: attempt, config: config, to: &attributes)
        addFailure(of: attempt, to: &attributes, span: span)
        span.attributes = attributes.attributes
        span.end(at: instant(attempt.startedAt + attempt.duration))
    }

    private func addUsage(of attempt: RouteAttempt, config: ModelConfig?, to attributes: inout AttributeList) {
        guard attempt.calledModel, let usage = attempt.usage else { return }
        attributes.add(GenAINames.usageInputTokens, usage.promptTokens)
        attributes.add(GenAINames.usageOutputTokens, usage.completionTokens)
        if usage.isEstimated { attributes.add(HybridNames.usageEstimated, true) }
        attributes.add(HybridNames.costUSD, config?.pricing?.cost(of: usage))
    }

    /// `error.type` and an error status for a call that failed; a lost race is marked cancelled without an error
    /// status, since cancelling it was the router's choice, not a fault.
    private func addFailure(of attempt: RouteAttempt, to attributes: inout AttributeList, span: any Span) {
        guard let errorType = attempt.errorType else { return }
        attributes.add(GenAINames.errorType, errorType)
        if attempt.outcome.kind == .lostRace {
            attributes.add(HybridNames.attemptCancelled, true)
            return
        }
        if !attempt.outcome.checkFailures.isEmpty {
            attributes.add(HybridNames.failedChecks, attempt.outcome.checkFailures.map(\.name))
        }
        span.setStatus(SpanStatus(code: .error, message: errorType))
    }

    /// A model the walk did not call, and why.
    private func skipEvent(_ attempt: RouteAttempt) -> SpanEvent {
        var attributes = AttributeList(capacity: 2)
        attributes.add(HybridNames.modelID, attempt.modelID)
        attributes.add(HybridNames.skipReason, attempt.outcome.skipReason?.name)
        return SpanEvent(name: HybridNames.skippedEvent, at: instant(attempt.startedAt), attributes: attributes.attributes)
    }
}
