import Foundation
import HybridConfig
import HybridCore

/// Everything decided before the first model is considered: feature, arm, variant, rendered request, deadline.
/// A class, not a struct: the walk's async steps each take the plan, and copying its seventeen fields (the
/// document, the feature, the request) into every async frame was the largest `memmove` in the router's profile.
final class Plan: Sendable {
    let feature: String
    let config: FeatureConfig
    let document: HybridConfigDocument
    let priority: [String]
    let variant: String
    let arm: String?
    /// The rendered request, its deadline set to the overall deadline.
    let request: GenerationRequest
    let start: ContinuousClock.Instant
    let deadline: ContinuousClock.Instant?
    /// Estimated prompt tokens (instructions plus messages), without margin.
    let promptTokens: Int
    /// Output tokens reserved in the window.
    let outputReserve: Int
    let truncatedInputs: [String]
    /// The routing rules in force for this request, privacy and deadline included (the router adds what only it
    /// knows when the walk starts: the prompt's window, its cache and ledger).
    let rules: RoutingWalk.Rules
    /// The feature's output schema and constraints, run on every answer.
    let checks: OutputChecks
    /// The config condition whose override applies to this install; nil when none does.
    let condition: String?
    /// The input rule that chose `priority` (and maybe `variant`); nil when the feature's own route applies.
    let inputRule: String?

    init(
        feature: String,
        config: FeatureConfig,
        document: HybridConfigDocument,
        priority: [String],
        variant: String,
        arm: String?,
        request: GenerationRequest,
        start: ContinuousClock.Instant,
        promptTokens: Int,
        outputReserve: Int,
        truncatedInputs: [String],
        rules: RoutingWalk.Rules,
        checks: OutputChecks,
        condition: String?,
        inputRule: String?
    ) {
        self.feature = feature
        self.config = config
        self.document = document
        self.priority = priority
        self.variant = variant
        self.arm = arm
        self.request = request
        self.start = start
        self.deadline = request.deadline
        self.promptTokens = promptTokens
        self.outputReserve = outputReserve
        self.truncatedInputs = truncatedInputs
        self.rules = rules
        self.checks = checks
        self.condition = condition
        self.inputRule = inputRule
    }

    /// What a call to a model priced as `config` is expected to cost for this request: the prompt's estimate and
    /// the reserved output at its prices. The hedge's cost cap judges a raced model by it, and the router check
    /// gives the simulator the same figure (`Router.plannedCosts`).
    func expectedCost(for config: ModelConfig) -> Double? {
        config.pricing?.cost(of: TokenUsage(promptTokens: promptTokens, completionTokens: outputReserve))
    }

    func routed(
        _ response: GenerationResponse, attempts: [RouteAttempt], fromCache: Bool, failedChecks: [FailedOutputCheck] = [],
        isFailing: Bool = false
    ) -> RoutedResponse {
        let calls = attempts.filter(\.calledModel).compactMap { attempt in attempt.usage.map { (attempt.modelID, $0) } }
        return RoutedResponse(
            response: response, attempts: attempts, variant: variant, rolloutArm: arm, fromCache: fromCache,
            truncatedInputs: truncatedInputs, failedChecks: failedChecks, isFailing: isFailing, condition: condition, inputRule: inputRule,
            totalUsage: calls.reduce(TokenUsage(promptTokens: 0, completionTokens: 0)) { $0 + $1.1 },
            totalCostUSD: Self.totalCost(of: calls, in: document))
    }

    /// The calls' costs summed; nil when a call's model has no prices (its cost is unknown, not zero).
    private static func totalCost(of calls: [(String, TokenUsage)], in document: HybridConfigDocument) -> Double? {
        var total = 0.0
        for (id, usage) in calls {
            guard let cost = document.models[id]?.pricing?.cost(of: usage) else { return nil }
            total += cost
        }
        return total
    }
}

extension Router {
    /// `name` as this install sees it (the labels it was given select a condition's override, first match wins)
    /// and the variant and order its rollout bucket gets.
    func resolve(_ name: String, in document: HybridConfigDocument) throws(RouterError) -> (ResolvedFeature, FeatureAssignment) {
        guard let resolved = document.resolve(feature: name, labels: targetLabels, installId: installId) else {
            throw .unknownFeature(name, known: Array(document.features.keys))
        }
        return (resolved, document.assignment(feature: name, config: resolved.config, installId: installId))
    }

    /// The walk's rules for a plain request to `feature` with `input`, as this router plans it (before it adds the
    /// prompt's window, its cache and ledger): what the router check and the simulator must agree with.
    func plannedRules(feature: String, input: [String: String]) async throws(RouterError) -> RoutingWalk.Rules {
        try await plainPlan(feature: feature, input: input).rules
    }

    /// What a plain request to `feature` with `input` is expected to cost on each model of the config, by model id,
    /// as the hedge's cost cap judges a raced model: what the router check hands the simulator, so both judge a cap
    /// by the same estimate rather than the simulator by the stored bill. A model of unknown price is left out.
    package func plannedCosts(feature: String, input: [String: String]) async throws(RouterError) -> [String: Double] {
        let plan = try await plainPlan(feature: feature, input: input)
        return plan.document.models.compactMapValues(plan.expectedCost(for:))
    }

    /// The plan of a plain request (no privacy, deadline or typed output of the call's own) over the config now.
    private func plainPlan(feature: String, input: [String: String]) async throws(RouterError) -> Plan {
        try makePlan(RequestTrace(feature: feature, input: input), document: await configSource.document(), start: clock.now())
    }

    /// Everything decided before the first model: the feature's assignment, input checks, rendering, truncation.
    func makePlan(_ trace: RequestTrace, document: HybridConfigDocument, start: ContinuousClock.Instant) throws(RouterError) -> Plan {
        let name = trace.feature
        let (resolved, assignment) = try resolve(name, in: document)
        var feature = resolved.config
        // A typed call's contract is the app's type: its schema goes to the model and into the checks.
        if let typed = trace.output { feature.outputSchema = typed.schema }
        try checkMinimumInput(trace.input, feature: feature, name: name)
        let rules = RoutingWalk.Rules(
            feature: feature, document: document, defaults: policy,
            call: .init(privacy: trace.privacy, deadline: trace.deadline, typedOutput: trace.output != nil))
        var route = Route(priority: assignment.priority, variant: assignment.variant)
        var fitted = try fit(trace, feature: feature, variant: route.variant, priority: route.priority, rules: rules, document: document, start: start)
        if let rule = firstInputRule(
            assignment.inputRules, request: fitted.rendered.request, promptTokens: fitted.promptTokens, labels: trace.labels)
        {
            let refit = (rule.variant.map { $0 != route.variant } ?? false) || policy.truncation == .trimLongestInputToFit
            route = Route(priority: rule.priority, variant: rule.variant ?? route.variant, inputRule: rule.name)
            feature.priority = rule.priority
            if refit {
                fitted = try fit(trace, feature: feature, variant: route.variant, priority: route.priority, rules: rules, document: document, start: start)
            }
        }
        var request = fitted.rendered.request
        request.deadline = rules.deadline.map { start + $0 }
        var checks = OutputChecks(schema: feature.outputSchema, constraints: feature.constraints)
        checks.decodes = trace.output?.decodes
        return Plan(
            feature: name, config: feature, document: document, priority: route.priority, variant: fitted.rendered.variant,
            arm: assignment.arm, request: request, start: start, promptTokens: fitted.promptTokens,
            outputReserve: fitted.outputReserve, truncatedInputs: fitted.truncated.sorted(), rules: rules, checks: checks,
            condition: resolved.condition, inputRule: route.inputRule)
    }

    /// The first of `rules` that holds for `request` (measured once, only what the rules read, its token estimate
    /// the plan's) and the call's labels over the router's; nil when none does. An unmeasurable request fails every
    /// test on its text.
    func firstInputRule(
        _ rules: [InputRule], request: GenerationRequest, promptTokens: Int, labels: [String: String]
    ) -> InputRule? {
        guard !rules.isEmpty else { return nil }
        var needs: InputFeatures.Needs?
        for rule in rules { if let reads = rule.measures { needs = (needs ?? []).union(reads) } }
        let features = needs.map { InputFeatures(request, needs: $0, inputTokens: promptTokens) }
        let measured = features?.isMeasurable == true ? features : nil
        let labels = labels.isEmpty ? eventLabels : eventLabels.merging(labels) { _, call in call }
        return rules.first { $0.holds(measured, labels: labels) }
    }

    /// Declines an input shorter than the app's minimum for the feature before any model is called.
    private func checkMinimumInput(_ input: [String: String], feature: FeatureConfig, name: String) throws(RouterError) {
        let minimum = policy.minimumInput(for: name)
        guard minimum > 0 else { return }
        let actual = feature.inputs.reduce(0) { sum, key in
            sum + (input[key].map { $0.trimmingCharacters(in: .whitespacesAndNewlines).count } ?? 0)
        }
        if actual < minimum { throw .inputTooShort(feature: name, minimum: minimum, actual: actual) }
    }

    /// The rendered prompt and its size, its inputs cut as the app asked and, under `.trimLongestInputToFit`,
    /// until it fits the largest window among the models the rules' privacy class allows.
    private func fit(
        _ trace: RequestTrace, feature: FeatureConfig, variant: String, priority: [String], rules: RoutingWalk.Rules,
        document: HybridConfigDocument, start: ContinuousClock.Instant
    ) throws(RouterError) -> FittedPrompt {
        var values = trace.input
        var truncated = Set<String>()
        if let cap = trace.truncateInputTo {
            for (key, value) in values where value.unicodeScalars.count > cap {
                values[key] = Self.cut(value, toScalars: cap)
                truncated.insert(key)
            }
        }
        var rendered = try render(feature, name: trace.feature, variant: variant, values: values, start: start)
        let outputReserve = rendered.request.options.maxOutputTokens ?? policy.defaultOutputTokenReserve
        var promptTokens = TokenEstimator.estimate(rendered.request)
        guard policy.truncation == .trimLongestInputToFit,
            let largest = largestWindow(priority: priority, privacy: rules.privacy, document: document)
        else { return FittedPrompt(rendered: rendered, promptTokens: promptTokens, outputReserve: outputReserve, truncated: truncated) }
        // A few rounds: the estimate is linear in length, so one cut usually suffices; more rounds absorb
        // rounding and template text around the variable.
        for _ in 0..<4 {
            let needed = policy.requiredWindow(promptTokens: promptTokens, outputTokens: outputReserve)
            guard needed > largest,
                let (key, value) = values.filter({ feature.inputs.contains($0.key) }).max(by: { $0.value.unicodeScalars.count < $1.value.unicodeScalars.count }),
                !value.isEmpty
            else { break }
            let excessTokens = Double(needed - largest) / (1 + max(0, policy.promptTokenMargin))
            let remove = Int((excessTokens * 4).rounded(.up)) + 8
            values[key] = Self.cut(value, toScalars: max(0, value.unicodeScalars.count - remove))
            truncated.insert(key)
            rendered = try render(feature, name: trace.feature, variant: variant, values: values, start: start)
            promptTokens = TokenEstimator.estimate(rendered.request)
        }
        return FittedPrompt(rendered: rendered, promptTokens: promptTokens, outputReserve: outputReserve, truncated: truncated)
    }

    private func render(
        _ feature: FeatureConfig, name: String, variant: String, values: [String: String], start: ContinuousClock.Instant
    ) throws(RouterError) -> RenderedPrompt {
        do {
            return try feature.render(name: name, variant: variant, input: values, now: start)
        } catch {
            throw .renderFailed(error)
        }
    }

    /// The largest context window among the priority models the privacy class allows.
    private func largestWindow(priority: [String], privacy: PrivacyClass?, document: HybridConfigDocument) -> Int? {
        priority.compactMap { id -> Int? in
            guard let candidate = candidate(id, document: document), privacy?.allows(tier: candidate.model.tier) ?? true else { return nil }
            return candidate.model.capabilities.contextWindow
        }.max()
    }

    /// `value` cut to at most `limit` Unicode scalars, ending with "…" when cut.
    static func cut(_ value: String, toScalars limit: Int) -> String {
        let scalars = value.unicodeScalars
        guard scalars.count > limit else { return value }
        guard limit > 1 else { return limit == 1 ? "…" : "" }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars.prefix(limit - 1))
        out.append("…")
        return String(out)
    }
}

/// The order and variant a request takes: the install's assignment, or an input rule's.
private struct Route {
    var priority: [String]
    var variant: String
    var inputRule: String? = nil
}

/// A rendered prompt sized for the walk: its estimated tokens, the output reserved, the inputs cut to fit.
struct FittedPrompt {
    var rendered: RenderedPrompt
    var promptTokens: Int
    var outputReserve: Int
    var truncated: Set<String>
}
