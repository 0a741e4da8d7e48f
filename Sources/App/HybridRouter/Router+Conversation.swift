public import HybridConfig
public import HybridCore

extension Router {
    /// Opens a conversation with `feature`: the app's tools with their handlers, and optionally a transcript to
    /// resume. See ``Conversation``.
    ///
    /// Without a feature, a router made from declared models (``init(models:instructions:options:configURL:configOptions:installId:stateDirectory:cache:policy:eventSink:eventLabels:)``)
    /// opens a plain session over its `respond` feature, as `LanguageModelSession` does: each `send` answers with
    /// the whole transcript in view. A config without a `respond` feature fails the first turn with `unknownFeature`.
    ///
    /// - Parameters:
    ///   - privacy: a stricter class than the feature's for every step; a looser one is ignored.
    ///   - stepLimit: the most model calls one turn may make (each tool round is one).
    public func conversation(
        feature: String = "respond", tools: [ConversationTool] = [], transcript: [ChatMessage] = [], privacy: PrivacyClass? = nil,
        stepLimit: Int = 8
    ) -> Conversation {
        Conversation(router: self, feature: feature, tools: tools, transcript: transcript, privacy: privacy, stepLimit: stepLimit)
    }

    /// The plan of one conversation step: the feature's variant instructions, options and checks over the whole
    /// transcript with the tools offered. The deadline counts from the turn's `start`, so every step of a turn
    /// shares it, and attempts are timed from the turn's start.
    func makeConversationPlan(
        feature name: String, messages: [ChatMessage], tools: [ToolDefinition], privacy privacyOverride: PrivacyClass?,
        start: ContinuousClock.Instant, deadline deadlineOverride: Duration?
    ) async throws(RouterError) -> Plan {
        let document = await configSource.document()
        let (resolved, assignment) = try resolve(name, in: document)
        var feature = resolved.config
        let rules = RoutingWalk.Rules(
            feature: feature, document: document, defaults: policy, call: .init(privacy: privacyOverride, deadline: deadlineOverride))
        var rendered = try renderTurn(feature, name: name, variant: assignment.variant, messages: messages, tools: tools, start: start)
        let rule = firstInputRule(
            assignment.inputRules, request: rendered.request, promptTokens: TokenEstimator.estimate(rendered.request), labels: [:])
        var priority = assignment.priority
        if let rule {
            priority = rule.priority
            feature.priority = rule.priority
            if let variant = rule.variant, variant != rendered.variant {
                rendered = try renderTurn(feature, name: name, variant: variant, messages: messages, tools: tools, start: start)
            }
        }
        var request = rendered.request
        request.deadline = rules.deadline.map { start + $0 }
        return Plan(
            feature: name, config: feature, document: document, priority: priority, variant: rendered.variant,
            arm: assignment.arm, request: request, start: start, promptTokens: TokenEstimator.estimate(request),
            outputReserve: request.options.maxOutputTokens ?? policy.defaultOutputTokenReserve, truncatedInputs: [], rules: rules,
            checks: OutputChecks(schema: feature.outputSchema, constraints: feature.constraints, tools: tools),
            condition: resolved.condition, inputRule: rule?.name)
    }

    /// The turn's prompt for `variant`, the tools offered (input rules measure them).
    private func renderTurn(
        _ feature: FeatureConfig, name: String, variant: String, messages: [ChatMessage], tools: [ToolDefinition],
        start: ContinuousClock.Instant
    ) throws(RouterError) -> RenderedPrompt {
        do {
            var rendered = try feature.render(name: name, variant: variant, messages: messages, now: start)
            rendered.request.tools = tools
            return rendered
        } catch {
            throw .renderFailed(error)
        }
    }
}
