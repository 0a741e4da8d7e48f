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
    let privacy: PrivacyClass
    /// The rendered request, its deadline set to the overall deadline.
    let request: GenerationRequest
    let start: ContinuousClock.Instant
    let deadline: ContinuousClock.Instant?
    let deadlineDuration: Duration?
    /// Estimated prompt tokens (instructions plus messages), without margin.
    let promptTokens: Int
    /// Output tokens reserved in the window.
    let outputReserve: Int
    let truncatedInputs: [String]
    /// The routing rules in force for this request (the router adds what only it knows when the walk starts).
    let rules: RoutingWalk.Rules
    /// The feature's output schema and constraints, run on every answer.
    let checks: OutputChecks
    /// The config condition whose override applies to this install; nil when none does.
    let condition: String?

    init(
        feature: String,
        config: FeatureConfig,
        document: HybridConfigDocument,
        priority: [String],
        variant: String,
        arm: String?,
        privacy: PrivacyClass,
        request: GenerationRequest,
        start: ContinuousClock.Instant,
        deadline: ContinuousClock.Instant?,
        deadlineDuration: Duration?,
        promptTokens: Int,
        outputReserve: Int,
        truncatedInputs: [String],
        rules: RoutingWalk.Rules,
        checks: OutputChecks,
        condition: String?
    ) {
        self.feature = feature
        self.config = config
        self.document = document
        self.priority = priority
        self.variant = variant
        self.arm = arm
        self.privacy = privacy
        self.request = request
        self.start = start
        self.deadline = deadline
        self.deadlineDuration = deadlineDuration
        self.promptTokens = promptTokens
        self.outputReserve = outputReserve
        self.truncatedInputs = truncatedInputs
        self.rules = rules
        self.checks = checks
        self.condition = condition
    }

    func routed(
        _ response: GenerationResponse, attempts: [RouteAttempt], fromCache: Bool, failedChecks: [FailedOutputCheck] = [],
        isFailing: Bool = false
    ) -> RoutedResponse {
        RoutedResponse(
            response: response, attempts: attempts, variant: variant, rolloutArm: arm, fromCache: fromCache,
            truncatedInputs: truncatedInputs, failedChecks: failedChecks, isFailing: isFailing, condition: condition)
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

    /// Everything decided before the first model: the feature's assignment, input checks, rendering, truncation.
    func makePlan(_ trace: RequestTrace, document: HybridConfigDocument, start: ContinuousClock.Instant) throws(RouterError) -> Plan {
        let name = trace.feature, input = trace.input, privacyOverride = trace.privacy
        let truncateInputTo = trace.truncateInputTo, deadlineOverride = trace.deadline
        let (resolved, assignment) = try resolve(name, in: document)
        var feature = resolved.config
        // A typed call's contract is the app's type: its schema goes to the model and into the checks.
        if let typed = trace.output { feature.outputSchema = typed.schema }
        let minimum = policy.minimumInput(for: name)
        if minimum > 0 {
            let actual = feature.inputs.reduce(0) { sum, key in
                sum + (input[key].map { $0.trimmingCharacters(in: .whitespacesAndNewlines).count } ?? 0)
            }
            if actual < minimum { throw .inputTooShort(feature: name, minimum: minimum, actual: actual) }
        }
        let privacy: PrivacyClass =
            if let privacyOverride, privacyOverride.maximumTier < feature.privacy.maximumTier { privacyOverride } else { feature.privacy }

        var values = input
        var truncated = Set<String>()
        if let cap = truncateInputTo {
            for (key, value) in values where value.unicodeScalars.count > cap {
                values[key] = Self.cut(value, toScalars: cap)
                truncated.insert(key)
            }
        }
        var rendered = try render(feature, name: name, variant: assignment.variant, values: values, start: start)
        let outputReserve = rendered.request.options.maxOutputTokens ?? policy.defaultOutputTokenReserve
        var promptTokens = Self.estimateTokens(rendered.request)

        if policy.truncation == .trimLongestInputToFit,
            let largest = largestWindow(priority: assignment.priority, privacy: privacy, document: document)
        {
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
                rendered = try render(feature, name: name, variant: assignment.variant, values: values, start: start)
                promptTokens = Self.estimateTokens(rendered.request)
            }
        }

        var request = rendered.request
        let deadlineDuration = deadlineOverride ?? feature.deadline
        request.deadline = deadlineDuration.map { start + $0 }
        var rules = RoutingWalk.Rules(config: document.routing(for: feature), policy: policy)
        var checks = OutputChecks(schema: feature.outputSchema, constraints: feature.constraints)
        if let typed = trace.output {
            // An answer the app cannot decode is no answer: the next model is tried whatever the policy says.
            checks.decodes = typed.decodes
            rules.outputFallback.names.insert(DecodeCheck.resultName)
        }
        return Plan(
            feature: name, config: feature, document: document, priority: assignment.priority, variant: rendered.variant,
            arm: assignment.arm, privacy: privacy, request: request, start: start, deadline: request.deadline,
            deadlineDuration: deadlineDuration, promptTokens: promptTokens, outputReserve: outputReserve,
            truncatedInputs: truncated.sorted(), rules: rules, checks: checks, condition: resolved.condition)
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
    private func largestWindow(priority: [String], privacy: PrivacyClass, document: HybridConfigDocument) -> Int? {
        priority.compactMap { id -> Int? in
            guard let candidate = candidate(id, document: document), privacy.allows(tier: candidate.model.tier) else { return nil }
            return candidate.model.capabilities.contextWindow
        }.max()
    }

    /// Estimated tokens of everything sent: instructions and every message.
    static func estimateTokens(_ request: GenerationRequest) -> Int {
        request.messages.reduce(TokenEstimator.estimate(request.instructions ?? "")) { $0 + TokenEstimator.estimate($1.content) }
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
