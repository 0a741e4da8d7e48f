@testable import HybridConfig
@testable import HybridCore
@testable import HybridRouter
@testable import HybridValidation
import Testing

/// `RouterError` and `RouteAttempt.Outcome` are structs so new kinds do not break callers; what they print is what
/// the CLI shows and logs keep, so every kind's wording is pinned here, byte for byte, as it was when they were enums.
@Suite("RouterError and RouteAttempt.Outcome: codes, properties and unchanged wording")
struct RouterErrorTests {
    static let refusal = GenerationError.refusal(model: "a", detail: "filter")
    static let serverError = GenerationError.serverError(model: "b", status: 500, detail: "boom")

    static func attempt(_ id: String, _ outcome: RouteAttempt.Outcome, at start: Duration, took: Duration) -> RouteAttempt {
        RouteAttempt(modelID: id, tier: .thirdParty, outcome: outcome, startedAt: start, duration: took)
    }

    static let refused = attempt("a", .failed(refusal), at: .milliseconds(2), took: .milliseconds(15))
    static let ghost = attempt("ghost", .skipped(.unknownModel), at: .zero, took: .zero)

    @Test("every outcome's attempt line reads as before")
    func attemptWording() {
        let check = FailedOutputCheck(name: "max_words", path: nil, keyword: nil, message: "too long")
        let lines = [
            Self.refused,
            Self.ghost,
            Self.attempt("b", .served, at: .milliseconds(20), took: .milliseconds(30)),
            Self.attempt("c", .servedFromCache, at: .microseconds(500), took: .zero),
            Self.attempt("d", .cancelledAtDeadline, at: .milliseconds(12), took: .milliseconds(88)),
            Self.attempt("e", .failedChecks([check]), at: .microseconds(1500), took: .microseconds(3250)),
            Self.attempt("f", .timedOut(after: .milliseconds(100)), at: .zero, took: .milliseconds(100)),
        ].map(\.description)
        #expect(lines == [
            "a failed: a: the model declined to answer (filter) (at 2.0 ms, took 15 ms)",
            "ghost skipped: not declared in the config's models (or not given to the router) (at 0.0 ms, took 0.0 ms)",
            "b served (at 20 ms, took 30 ms)",
            "c served from cache (at 0.5 ms, took 0.0 ms)",
            "d cancelled at the deadline (at 12 ms, took 88 ms)",
            "e failed checks: constraint: max_words (at 1.5 ms, took 3.25 ms)",
            "f timed out after its 100 ms attempt timeout (at 0.0 ms, took 100 ms)",
        ])
    }

    @Test("an outcome's kind and data are readable without a pattern match, and equality compares both")
    func outcomeProperties() {
        let failed = RouteAttempt.Outcome.failed(Self.refusal)
        #expect(failed.kind == .failed && failed.error == Self.refusal && failed.skipReason == nil)
        #expect(RouteAttempt.Outcome.skipped(.unknownModel).skipReason == .unknownModel)
        #expect(RouteAttempt.Outcome.timedOut(after: .seconds(1)).attemptTimeout == .seconds(1))
        #expect(RouteAttempt.Outcome.served.kind == .served && RouteAttempt.Outcome.served.kind.description == "served")
        #expect(failed != .failed(Self.serverError))
        #expect(failed != .served)
        #expect(Self.refused.calledModel && !Self.ghost.calledModel)
    }

    @Test("every error kind's message reads as before")
    func errorWording() {
        let attempts = [Self.refused, Self.ghost]
        let listed = "Attempts: " + attempts.map(\.description).joined(separator: "; ")
        let messages: [(RouterError, String)] = [
            (.unknownFeature("translate", known: ["summarize", "extract"]),
             "no feature \"translate\" in the config in force (features: extract, summarize); check the name or publish a config that defines it"),
            (.inputTooShort(feature: "summarize", minimum: 20, actual: 5),
             "summarize: input has 5 characters, fewer than the 20 this feature needs; no model was asked"),
            (.renderFailed(.missingTemplate(feature: "summarize", variant: "v2")),
             "could not render the prompt: features.summarize.variants.v2: no template; validate the config so template files are inlined"),
            (.noEligibleModel(feature: "summarize", attempts: []),
             "summarize: no model could serve the request. No model in the priority order."),
            (.noEligibleModel(feature: "summarize", attempts: attempts),
             "summarize: no model could serve the request. " + listed),
            (.deadlineExceeded(feature: "summarize", deadline: .milliseconds(1500), attempts: attempts),
             "summarize: no answer within the 1500 ms deadline; raise deadlineMs or put a faster model first. " + listed),
            (.stopped(feature: "summarize", error: Self.refusal, attempts: attempts),
             "summarize: stopped after a: the model declined to answer (filter) (the router policy does not fall back on refusal). " + listed),
            (.streamInterrupted(feature: "summarize", error: Self.serverError, attempts: attempts),
             "summarize: the stream failed after text was delivered, so no fallback was possible: b: server error 500 (boom); a retry may help. " + listed),
            (.cancelled(feature: "summarize", attempts: attempts), "summarize: cancelled by the caller. " + listed),
            (.outputChecksFailed(feature: "summarize", attempts: attempts),
             "summarize: every model's answer failed its output checks (routing.whenChecksFail is throw). " + listed),
        ]
        for (error, expected) in messages { #expect(error.description == expected) }
    }

    @Test("an error's code and data are properties; equality compares both")
    func errorProperties() {
        let stopped = RouterError.stopped(feature: "summarize", error: Self.refusal, attempts: [Self.refused])
        #expect(stopped.code == .stopped && stopped.code.description == "stopped")
        #expect(stopped.feature == "summarize" && stopped.generationError == Self.refusal && stopped.attempts == [Self.refused])
        let late = RouterError.deadlineExceeded(feature: "summarize", deadline: .seconds(2), attempts: [])
        #expect(late.code == .deadlineExceeded && late.deadline == .seconds(2) && late.generationError == nil)
        let short = RouterError.inputTooShort(feature: "summarize", minimum: 20, actual: 5)
        #expect(short.minimumLength == 20 && short.inputLength == 5)
        #expect(RouterError.unknownFeature("x", known: ["a"]).knownFeatures == ["a"])
        #expect(RouterError.renderFailed(.missingTemplate(feature: "s", variant: "v")).feature == nil)
        #expect(stopped != .stopped(feature: "summarize", error: Self.serverError, attempts: [Self.refused]))
        #expect(stopped != .streamInterrupted(feature: "summarize", error: Self.refusal, attempts: [Self.refused]))
        #expect(late == .deadlineExceeded(feature: "summarize", deadline: .seconds(2), attempts: []))
    }
}
