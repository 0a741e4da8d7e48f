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
        nameSpan(requestModel: summary.requestModel)
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
        attributes.add(OpenInferenceNames.spanKind, OpenInferenceNames.chain)
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
        var call = ModelCallSpan(modelID: attempt.modelID, config: config, tier: attempt.tier)
        call.add(HybridNames.attemptOutcome, attempt.outcomeName)
        if attempt.outcome.kind == .servedFromCache { call.fromCache() }
        let served = attempt.outcome.kind == .served
        let responseModel = served ? summary.response.map { $0.providerModel ?? config?.model ?? attempt.modelID } : nil
        let usage = attempt.calledModel ? attempt.usage : nil
        call.answered(usage: usage, costUSD: usage.flatMap { config?.pricing?.cost(of: $0) }, responseModel: responseModel)
        addFailure(of: attempt, to: &call)
        call.write(to: tracer, parent: parent.context, from: instant(attempt.startedAt), to: instant(attempt.startedAt + attempt.duration))
    }

    /// `error.type` and an error status for a call that failed; a lost race is marked cancelled without an error
    /// status, since cancelling it was the router's choice, not a fault.
    private func addFailure(of attempt: RouteAttempt, to call: inout ModelCallSpan) {
        guard let errorType = attempt.errorType else { return }
        if attempt.outcome.kind == .lostRace {
            call.add(HybridNames.attemptCancelled, true)
            call.failed(errorType, status: false)
            return
        }
        call.failedChecks(attempt.outcome.checkFailures.map(\.name))
        call.failed(errorType)
    }

    /// A model the walk did not call, and why.
    private func skipEvent(_ attempt: RouteAttempt) -> SpanEvent {
        var attributes = AttributeList(capacity: 2)
        attributes.add(HybridNames.modelID, attempt.modelID)
        attributes.add(HybridNames.skipReason, attempt.outcome.skipReason?.name)
        return SpanEvent(name: HybridNames.skippedEvent, at: instant(attempt.startedAt), attributes: attributes.attributes)
    }

    /// A tool handler's run in a conversation turn, as the conventions' `execute_tool {gen_ai.tool.name}` span:
    /// started live (the app's handler runs inside it, so its own spans are children), a child of the turn's span.
    func startToolSpan(_ call: ToolCall, at offset: Duration) -> (any Span)? {
        guard let tracer, let span else { return nil }
        let tool = tracer.startSpan(
            "\(GenAINames.executeTool) \(call.name)", context: span.context, ofKind: .internal, at: instant(offset))
        var attributes = AttributeList(capacity: 4)
        attributes.add(GenAINames.operationName, GenAINames.executeTool)
        attributes.add(GenAINames.toolName, call.name)
        attributes.add(GenAINames.toolCallID, call.id)
        attributes.add(OpenInferenceNames.spanKind, OpenInferenceNames.tool)
        tool.attributes = attributes.attributes
        return tool
    }

    /// Ends a tool span: an error status when the handler failed (`error.type` `tool_error`) or the turn's deadline
    /// came first (`deadline_exceeded`, no execution).
    func endToolSpan(_ tool: any Span, _ execution: ToolExecution?, at offset: Duration) {
        let errorType: String? = execution == nil ? "deadline_exceeded" : execution?.succeeded == false ? "tool_error" : nil
        if let errorType {
            tool.attributes[GenAINames.errorType] = errorType
            tool.setStatus(SpanStatus(code: .error, message: errorType))
        }
        tool.end(at: instant(offset))
    }
}
