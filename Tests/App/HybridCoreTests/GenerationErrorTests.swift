@testable import HybridCore
@testable import HybridValidation
import Testing

@Suite("Generation error")
struct GenerationErrorTests {
    /// One error per kind (and per wording branch), with the description it had when `GenerationError` was an enum:
    /// reports, logs and golden files compare these texts, so the struct must keep them word for word.
    static let described: [(GenerationError, String)] = [
        (
            .contextWindowExceeded(model: "m", detail: "8192 tokens"),
            "m: the prompt does not fit the context window (8192 tokens); shorten the input or route to a model with a larger window"
        ),
        (
            .rateLimited(model: "m", retryAfter: .seconds(600), retryable: false, detail: "daily quota"),
            "m: quota exhausted (daily quota); retrying will not help until the quota resets or the limit is raised"
        ),
        (.rateLimited(model: "m", retryAfter: .seconds(2), retryable: true, detail: "429"), "m: rate limited (429); retry after 2.0 s"),
        (.rateLimited(model: "m", retryAfter: .milliseconds(250), retryable: true, detail: "429"), "m: rate limited (429); retry after 250 ms"),
        (.rateLimited(model: "m", retryAfter: nil, retryable: true, detail: "429"), "m: rate limited (429); retry later or lower concurrency"),
        (.unavailable(model: "m", reason: .missingAPIKey(variable: "OPENAI_API_KEY")), "m: unavailable: OPENAI_API_KEY not set"),
        (
            .timeout(model: "m", after: .seconds(30), phase: .firstByte),
            "m: timed out waiting for first-byte after 30.0 s; raise the timeout or deadline, or check the server"
        ),
        (.timeout(model: "m", after: nil, phase: .deadline), "m: timed out waiting for deadline; raise the timeout or deadline, or check the server"),
        (.refusal(model: "m", detail: "content filter"), "m: the model declined to answer (content filter)"),
        (.invalidRequest(model: "m", detail: "bad temperature"), "m: invalid request (bad temperature); fix the request or the model's configuration"),
        (
            .authentication(model: "m", detail: "invalid_api_key"),
            "m: authentication failed (invalid_api_key); check that key and its permissions"
        ),
        (.serverError(model: "m", status: 502, detail: "bad gateway"), "m: server error 502 (bad gateway); a retry may help"),
        (.serverError(model: "m", status: nil, detail: "stream reset"), "m: server error (stream reset); a retry may help"),
        (.decodingFailure(model: "m", detail: "bad JSON"), "m: could not decode the response (bad JSON)"),
        (.cancelled(model: "m"), "m: cancelled"),
    ]

    @Test("the description of every kind is unchanged", arguments: described)
    func descriptionIsUnchanged(error: GenerationError, expected: String) {
        #expect(error.description == expected)
        #expect(error.model == "m")
    }

    @Test func everyKindHasADescribedExample() {
        #expect(Set(Self.described.map(\.0.kind)) == Set(GenerationError.Kind.allCases))
    }

    /// Every readable property at once, so one comparison also checks that the other kinds' properties are nil.
    struct Fields: Equatable, CustomStringConvertible {
        var kind: GenerationError.Kind
        var model = "m"
        var detail: String?
        var retryAfter: Duration?
        var retryable: Bool?
        var reason: UnavailabilityReason?
        var after: Duration?
        var phase: GenerationError.TimeoutPhase?
        var status: Int?

        init(
            _ kind: GenerationError.Kind, detail: String? = nil, retryAfter: Duration? = nil, retryable: Bool? = nil,
            reason: UnavailabilityReason? = nil, after: Duration? = nil, phase: GenerationError.TimeoutPhase? = nil,
            status: Int? = nil
        ) {
            self.kind = kind
            self.detail = detail
            self.retryAfter = retryAfter
            self.retryable = retryable
            self.reason = reason
            self.after = after
            self.phase = phase
            self.status = status
        }

        init(of error: GenerationError) {
            self.init(
                error.kind, detail: error.detail, retryAfter: error.retryAfter, retryable: error.retryable,
                reason: error.reason, after: error.after, phase: error.phase, status: error.status)
            model = error.model
        }

        var description: String { "\(kind)" }
    }

    static let roundTrips: [(GenerationError, Fields)] = [
        (.contextWindowExceeded(model: "m", detail: "d"), Fields(.contextWindowExceeded, detail: "d")),
        (
            .rateLimited(model: "m", retryAfter: .seconds(3), retryable: true, detail: "d"),
            Fields(.rateLimited, detail: "d", retryAfter: .seconds(3), retryable: true)
        ),
        (.rateLimited(model: "m", retryAfter: nil, retryable: false, detail: "d"), Fields(.rateLimited, detail: "d", retryable: false)),
        (.unavailable(model: "m", reason: .modelNotReady), Fields(.unavailable, reason: .modelNotReady)),
        (.timeout(model: "m", after: .seconds(5), phase: .connect), Fields(.timeout, after: .seconds(5), phase: .connect)),
        (.timeout(model: "m", after: nil, phase: .deadline), Fields(.timeout, phase: .deadline)),
        (.refusal(model: "m", detail: "d"), Fields(.refusal, detail: "d")),
        (.invalidRequest(model: "m", detail: "d"), Fields(.invalidRequest, detail: "d")),
        (.authentication(model: "m", detail: "d"), Fields(.authentication, detail: "d")),
        (.serverError(model: "m", status: 503, detail: "d"), Fields(.serverError, detail: "d", status: 503)),
        (.serverError(model: "m", status: nil, detail: "d"), Fields(.serverError, detail: "d")),
        (.decodingFailure(model: "m", detail: "d"), Fields(.decodingFailure, detail: "d")),
        (.cancelled(model: "m"), Fields(.cancelled)),
    ]

    @Test("each factory's values read back from kind and properties; the other kinds' properties are nil", arguments: roundTrips)
    func propertiesRoundTrip(error: GenerationError, expected: Fields) {
        #expect(Fields(of: error) == expected)
    }

    @Test func everyKindRoundTrips() {
        #expect(Set(Self.roundTrips.map(\.1.kind)) == Set(GenerationError.Kind.allCases))
    }

    @Test func kindRawValuesAreTheStoredNames() {
        #expect(GenerationError.Kind.allCases.map(\.rawValue) == [
            "context_window_exceeded", "rate_limited", "unavailable", "timeout", "refusal", "invalid_request",
            "authentication", "server_error", "decoding_failure", "cancelled",
        ])
        #expect(GenerationError.TimeoutPhase.firstByte.rawValue == "first-byte")
    }

    @Test func equalityComparesKindAndValues() {
        #expect(GenerationError.refusal(model: "m", detail: "d") == .refusal(model: "m", detail: "d"))
        #expect(GenerationError.refusal(model: "m", detail: "d") != .invalidRequest(model: "m", detail: "d"))
        #expect(GenerationError.refusal(model: "m", detail: "d") != .refusal(model: "n", detail: "d"))
        #expect(GenerationError.serverError(model: "m", status: 500, detail: "d") != .serverError(model: "m", status: nil, detail: "d"))
        #expect(
            GenerationError.rateLimited(model: "m", retryAfter: nil, retryable: true, detail: "d")
                != .rateLimited(model: "m", retryAfter: nil, retryable: false, detail: "d"))
    }

    @Test func typedThrowsBuildWithTheFactoryNames() {
        func call() throws(GenerationError) { throw .timeout(model: "m", after: .seconds(1), phase: .total) }
        #expect(throws: GenerationError.timeout(model: "m", after: .seconds(1), phase: .total)) { try call() }
        do {
            try call()
        } catch {
            #expect(error.kind == .timeout && error.phase == .total)
        }
    }

    @Test func readingTheWayTheDocsSay() {
        let error = GenerationError.rateLimited(model: "m", retryAfter: .seconds(2), retryable: true, detail: "")
        var waited: Duration?
        if error.kind == .rateLimited, let retryAfter = error.retryAfter { waited = retryAfter }
        #expect(waited == .seconds(2))
    }
}
