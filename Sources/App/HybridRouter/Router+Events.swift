import Foundation
import HybridConfig
import HybridCore

extension Router {
    /// Plans the request, runs `walk` on the plan, and hands one `RouteEvent` to the event sink whatever the result.
    func traced(
        _ request: RequestTrace, _ walk: (Plan) async throws(RouterError) -> RoutedResponse
    ) async -> Result<RoutedResponse, RouterError> {
        let start = clock.now()
        var telemetry = self.telemetry.begin()
        let date = eventSink == nil ? nil : clock.date()
        let document = await configSource.document()
        var plan: Plan?
        let result: Result<RoutedResponse, RouterError>
        do {
            let made = try makePlan(request, document: document, start: start)
            plan = made
            telemetry?.startSpan(requestModel: made.requestModel)
            result = await RequestTelemetry.within(telemetry) { await Self.run(walk, made) }
        } catch {
            result = .failure(error)
        }
        if var telemetry {
            telemetry.finish(RouteSummary(result, feature: request.feature, document: document, plan: plan), elapsed: clock.now() - start)
        }
        if let eventSink, let date {
            let context = EventContext(request: request, document: document, plan: plan, start: start, date: date)
            eventSink.record(event(for: result, context))
        }
        return result
    }

    /// `walk` over `plan`, its error as a value (what `withinSpan` can carry).
    private static func run(
        _ walk: (Plan) async throws(RouterError) -> RoutedResponse, _ plan: Plan
    ) async -> Result<RoutedResponse, RouterError> {
        do { return .success(try await walk(plan)) } catch { return .failure(error) }
    }

    /// The event of one finished request.
    private func event(for result: Result<RoutedResponse, RouterError>, _ context: EventContext) -> RouteEvent {
        let feature = context.request.feature
        let assignment = context.plan == nil ? context.document.assignment(feature: feature, installId: installId) : nil
        var event = RouteEvent(
            timestamp: context.date, installId: installId, feature: feature, configVersion: context.document.version,
            variant: context.plan?.variant ?? assignment?.variant ?? "", rolloutArm: context.plan?.arm ?? assignment?.arm,
            bucket: context.document.rollouts[feature].map { RolloutBucketing.bucket(seed: $0.seed, feature: feature, installId: installId) },
            outcome: .failed, latencyMs: (clock.now() - context.start).milliseconds, labels: eventLabels)
        event.condition = context.plan?.condition
        event.inputRule = context.plan?.inputRule
        switch result {
        case .success(let routed):
            event.describeServed(routed, checks: context.plan?.checks)
            event.account(routed.attempts, in: context.document)
        case .failure(let error):
            event.outcome = error.code == .inputTooShort ? .declined : .failed
            event.errorKind = error.eventKind
            event.account(error.attempts, in: context.document)
        }
        if context.document.features[feature]?.events?.includeContent == true {
            event.content = RouteEvent.Content(inputs: context.request.input, output: try? result.get().response.text)
        }
        return event
    }

}

/// What an event is built from besides the result.
private struct EventContext {
    var request: RequestTrace
    var document: HybridConfigDocument
    var plan: Plan?
    var start: ContinuousClock.Instant
    var date: Date
}

extension RouteEvent {
    /// Every attempt with its own tokens and cost at the config's prices (a hedge's loser included, so budgets and
    /// the field report see what the race spent), the event's cost as their sum, and whether a second model was
    /// raced: an attempt lost the race, or two calls overlapped (a race both sides lost).
    fileprivate mutating func account(_ routeAttempts: [RouteAttempt], in document: HybridConfigDocument) {
        attempts = routeAttempts.map { attempt in
            var event = attempt.eventAttempt
            if attempt.calledModel, let usage = attempt.usage {
                event.inputTokens = usage.promptTokens
                event.outputTokens = usage.completionTokens
                event.costUSD = document.models[attempt.modelID]?.pricing?.cost(of: usage)
            }
            return event
        }
        costUSD = attempts.reduce(0) { $0 + ($1.costUSD ?? 0) }
        hedged = attempts.showRace ? true : nil
    }

    /// Fills the fields of a request that returned an answer.
    fileprivate mutating func describeServed(_ routed: RoutedResponse, checks: OutputChecks?) {
        let response = routed.response
        let served = routed.servingAttempt
        outcome = routed.isFailing ? .servedFailing : .served
        attempts = routed.attempts.map(\.eventAttempt)
        servedBy = served?.modelID ?? response.servedBy.id
        servedTier = served?.tier ?? response.servedBy.tier
        cacheHit = routed.fromCache
        inputTokens = response.usage.promptTokens
        outputTokens = response.usage.completionTokens
        tokensEstimated = response.usage.isEstimated
        if !routed.fromCache, let served, let ttft = response.timing.timeToFirstToken {
            ttftMs = (served.startedAt + ttft).milliseconds
        }
        // A cached answer was not checked again, so its checks are unknown rather than passed.
        if let checks, !checks.isEmpty, !routed.fromCache {
            self.checks = Self.checks(checks, failed: routed.failedChecks)
        }
    }

    /// Every check the feature runs, marked failed when the answer failed it.
    private static func checks(_ checks: OutputChecks, failed: [FailedOutputCheck]) -> [Check] {
        var failedNames = Set(failed.map(\.name))
        // Text that is not JSON is reported once, under json_parses; the schema was not met either.
        if failedNames.contains("json_parses") { failedNames.insert("schema_valid") }
        return checks.evaluate("").results.map { Check(name: $0.name, passed: !failedNames.contains($0.name)) }
    }
}

extension RoutedResponse {
    /// The attempt whose answer was returned: the one served (or served from cache), else, for an answer returned
    /// despite failed checks, that model's last attempt.
    var servingAttempt: RouteAttempt? {
        if let served = attempts.last(where: { $0.outcome == .served || $0.outcome == .servedFromCache }) { return served }
        return attempts.last { attempt in
            attempt.outcome.kind == .failedChecks && attempt.modelID == response.servedBy.id
        } ?? attempts.last
    }
}

extension RouteAttempt {
    /// The attempt as a field event reports it.
    var eventAttempt: RouteEvent.Attempt {
        var event = RouteEvent.Attempt(
            model: modelID, tier: tier, outcome: outcome.kind, startMs: startedAt.milliseconds,
            durationMs: duration.milliseconds)
        event.skipReason = outcome.skipReason?.name
        event.errorKind = outcome.error?.kind.rawValue
        return event
    }
}

extension RouteSkipReason {
    /// A stable machine name for the reason, as events and reports group by it.
    public var name: String {
        switch self {
        case .unknownModel: "unknown_model"
        case .unavailable: "unavailable"
        case .privacy: "privacy"
        case .overBudget: "over_budget"
        case .budgetUnknown: "budget_unknown"
        case .coolingDown: "cooling_down"
        case .contextWindowTooSmall: "context_window_too_small"
        case .windowNotLarger: "window_not_larger"
        }
    }
}

extension RouterError {
    /// The error's kind as a field event reports it: the model's error kind when a model's error ended the
    /// request, else the router's reason, in the same snake_case as `GenerationError.Kind`.
    var eventKind: String {
        switch code.kind {
        case .unknownFeature: "unknown_feature"
        case .inputTooShort: "input_too_short"
        case .renderFailed: "render_failed"
        case .noEligibleModel: "no_eligible_model"
        case .deadlineExceeded: "deadline_exceeded"
        case .stopped, .streamInterrupted: generationError?.kind.rawValue ?? ""
        case .cancelled: "cancelled"
        case .outputChecksFailed: "output_checks_failed"
        case .outputNotDecodable: "output_not_decodable"
        case .invalidOutputType: "invalid_output_type"
        }
    }
}
