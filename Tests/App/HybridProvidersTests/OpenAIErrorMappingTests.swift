import Foundation
@testable import HybridCore
@testable import HybridTestSupport
@testable import HybridTesting
@testable import HybridTransport
@testable import HybridValidation
import Testing

@testable import HybridProviders

/// Every error fixture maps to the right `GenerationError`, through both `generate` and `stream`, and no
/// description ever contains the API key or a fragment of it.
@Suite("OpenAI error mapping")
struct OpenAIErrorMappingTests {
    struct Expectation: Sendable, CustomTestStringConvertible {
        var fixture: WireFixture
        var check: @Sendable (GenerationError) -> Bool
        var testDescription: String { fixture.name }
    }

    static let expectations: [Expectation] = [
        Expectation(fixture: OpenAIWireFixtures.openAIContextLength) {
            $0.kind == .contextWindowExceeded && $0.detail?.contains("128000") == true
        },
        Expectation(fixture: OpenAIWireFixtures.llamaCppContextSize) {
            $0.kind == .contextWindowExceeded && $0.detail?.contains("prompt 4476 tokens, context window 4096 tokens") == true
        },
        Expectation(fixture: OpenAIWireFixtures.invalidParameter) {
            $0.kind == .invalidRequest && $0.detail?.contains("temperature") == true
        },
        Expectation(fixture: OpenAIWireFixtures.modelNotFound) {
            $0.kind == .invalidRequest && $0.detail?.contains("model_not_found") == true
        },
        Expectation(fixture: OpenAIWireFixtures.unprocessable) {
            if $0.kind == .invalidRequest, let detail = $0.detail { detail.contains("HTTP 422") && detail.contains("Field required") } else { false }
        },
        Expectation(fixture: OpenAIWireFixtures.invalidAPIKey) {
            $0.kind == .authentication && $0.detail?.contains("invalid_api_key") == true
        },
        Expectation(fixture: OpenAIWireFixtures.forbiddenEchoingKey) {
            $0.kind == .authentication && $0.detail?.contains("[redacted]") == true
        },
        Expectation(fixture: OpenAIWireFixtures.rateLimitedRetryAfter) {
            $0 == .rateLimited(model: "test-model", retryAfter: .seconds(20), retryable: true, detail: rateLimitDetail($0))
        },
        Expectation(fixture: OpenAIWireFixtures.rateLimitedRetryAfterMs) {
            $0 == .rateLimited(model: "test-model", retryAfter: .milliseconds(1500), retryable: true, detail: rateLimitDetail($0))
        },
        Expectation(fixture: OpenAIWireFixtures.rateLimitedResetHeaders) {
            $0 == .rateLimited(model: "test-model", retryAfter: .seconds(360), retryable: true, detail: rateLimitDetail($0))
        },
        Expectation(fixture: OpenAIWireFixtures.insufficientQuota) {
            $0 == .rateLimited(model: "test-model", retryAfter: nil, retryable: false, detail: rateLimitDetail($0))
        },
        Expectation(fixture: OpenAIWireFixtures.loadingModel) {
            $0 == .unavailable(model: "test-model", reason: .modelNotReady)
        },
        Expectation(fixture: OpenAIWireFixtures.internalError) {
            $0.kind == .serverError && $0.status == 500
        },
        Expectation(fixture: OpenAIWireFixtures.badGatewayEchoingKey) {
            $0.kind == .serverError && $0.status == 502 && $0.detail?.contains("Bad gateway") == true
        },
    ]

    private static func rateLimitDetail(_ error: GenerationError) -> String {
        error.kind == .rateLimited ? error.detail ?? "" : ""
    }

    /// The key, and the pieces of it a partial leak would show.
    static func leaksKey(_ text: String) -> Bool {
        text.contains(OpenAIWireFixtures.apiKey) || text.contains("SECRET") || text.contains("6789")
    }

    @Test("generate maps the fixture and never leaks the key", arguments: expectations)
    func generate(_ expectation: Expectation) async throws {
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(expectation.fixture))
        let error = try #require(await generationError(TestModels.model(transport), GenerationRequest(prompt: "x")))
        #expect(expectation.check(error), "got \(error)")
        #expect(error.model == "test-model")
        #expect(!Self.leaksKey(error.description), "\(error.description)")
        #expect(!Self.leaksKey(String(reflecting: error)))
    }

    @Test("stream maps the fixture the same way (split into 5-byte chunks) and never leaks the key", arguments: expectations)
    func stream(_ expectation: Expectation) async throws {
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(expectation.fixture, chunkSize: 5))
        let outcome = await drain(TestModels.model(transport).stream(GenerationRequest(prompt: "x")))
        #expect(outcome.events.isEmpty)
        let error = try #require(outcome.generationError)
        #expect(expectation.check(error), "got \(error)")
        #expect(!Self.leaksKey(error.description), "\(error.description)")
    }

    @Test("the mid-stream error fixture maps to serverError and never leaks the key")
    func midStream() async throws {
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(OpenAIWireFixtures.midStreamError, chunkSize: 3))
        let outcome = await drain(TestModels.model(transport).stream(GenerationRequest(prompt: "x")))
        let error = try #require(outcome.generationError)
        #expect(error.kind == .serverError)
        #expect(!Self.leaksKey(error.description))
    }

    @Test("a mid-stream context error chunk maps to contextWindowExceeded")
    func midStreamContextError() async throws {
        let body = OpenAIWireFixtures.sse([
            #"{"error":{"code":400,"message":"request (5000 tokens) exceeds the available context size (4096 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":5000,"n_ctx":4096}}"#
        ])
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"], body: Data(body.utf8)))
        let outcome = await drain(TestModels.model(transport).stream(GenerationRequest(prompt: "x")))
        #expect(outcome.generationError?.kind == .contextWindowExceeded)
    }

    // MARK: Transport errors

    struct TransportCase: Sendable, CustomTestStringConvertible {
        var name: String
        var error: TransportError
        var expected: GenerationError
        var testDescription: String { name }
    }

    static let url = "https://api.example.test/v1/chat/completions"
    static let transportCases: [TransportCase] = [
        TransportCase(
            name: "connection failed", error: .connectionFailed(url: url, detail: "Connection refused"),
            expected: .unavailable(model: "test-model", reason: .unreachable("could not connect to \(url): Connection refused"))
        ),
        TransportCase(
            name: "connect timeout", error: .timedOut(url: url, phase: .connect, after: .seconds(10)),
            expected: .timeout(model: "test-model", after: .seconds(10), phase: .connect)
        ),
        TransportCase(
            name: "first-byte timeout", error: .timedOut(url: url, phase: .firstByte, after: .seconds(30)),
            expected: .timeout(model: "test-model", after: .seconds(30), phase: .firstByte)
        ),
        TransportCase(
            name: "total timeout", error: .timedOut(url: url, phase: .total, after: .seconds(300)),
            expected: .timeout(model: "test-model", after: .seconds(300), phase: .total)
        ),
        TransportCase(name: "cancelled", error: .cancelled(url: url), expected: .cancelled(model: "test-model")),
        TransportCase(
            name: "body too large", error: .bodyTooLarge(url: url, limit: 10),
            expected: .decodingFailure(
                model: "test-model",
                detail: "response too large: it passed 10 bytes (the configured maxResponseBytes); stopped reading it")
        ),
        TransportCase(
            name: "failed", error: .failed(url: url, detail: "Connection reset by peer"),
            expected: .serverError(model: "test-model", status: nil, detail: "\(url): Connection reset by peer")
        ),
        TransportCase(
            name: "invalid URL", error: .invalidURL("ftp://x"), expected: .invalidRequest(model: "test-model", detail: "invalid base URL ftp://x")
        ),
    ]

    @Test("transport failures before headers map to their GenerationError", arguments: transportCases)
    func transportFailure(_ testCase: TransportCase) async {
        let transport = ScriptedHTTPTransport(.failing(testCase.error))
        #expect(await generationError(TestModels.model(transport), GenerationRequest(prompt: "x")) == testCase.expected)
    }

    @Test("a transport failure in the middle of a stream body maps the same way, after the deltas so far")
    func transportFailureMidBody() async {
        let partial = OpenAIWireFixtures.sse([#"{"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}"#])
        let response = ScriptedHTTPResponse(
            status: 200, headers: ["Content-Type": "text/event-stream"], chunks: [Data(partial.utf8)],
            bodyFailure: .failed(url: Self.url, detail: "Connection reset by peer")
        )
        let outcome = await drain(TestModels.model(ScriptedHTTPTransport(response)).stream(GenerationRequest(prompt: "x")))
        #expect(outcome.deltas == ["Hi"])
        #expect(outcome.generationError == .serverError(model: "test-model", status: nil, detail: "\(Self.url): Connection reset by peer"))
    }

    @Test("a total timeout set by the request's deadline is reported as the deadline")
    func deadlineTimeout() async {
        let transport = ScriptedHTTPTransport(.failing(.timedOut(url: Self.url, phase: .total, after: .seconds(2))))
        var request = GenerationRequest(prompt: "x")
        request.deadline = .now + .seconds(2)
        #expect(await generationError(TestModels.model(transport), request) == .timeout(model: "test-model", after: .seconds(2), phase: .deadline))
    }

    // MARK: Retry-After parsing

    @Test("Retry-After forms", arguments: [
        ("retry-after", "20", Duration.seconds(20)),
        ("retry-after", "0.5", .milliseconds(500)),
        ("Retry-After", "Wed, 21 Oct 2015 07:28:30 GMT", .seconds(30)),
        ("Retry-After", "Wed, 21 Oct 2015 07:27:00 GMT", .zero),
        ("retry-after-ms", "250", .milliseconds(250)),
        ("x-ratelimit-reset-requests", "1s", .seconds(1)),
        ("x-ratelimit-reset-requests", "6m0s", .seconds(360)),
        ("x-ratelimit-reset-tokens", "12ms", .milliseconds(12)),
        ("x-ratelimit-reset-tokens", "1h2m3.5s", .milliseconds(3_723_500)),
    ])
    func retryAfter(name: String, value: String, expected: Duration) {
        // 2015-10-21 07:28:00 GMT
        let now = Date(timeIntervalSince1970: 1_445_412_480)
        #expect(RetryAfter.duration(from: HTTPHeaders([(name, value)]), now: now) == expected)
    }

    @Test("unparseable Retry-After values give no duration", arguments: ["soon", "-5", "", "5x"])
    func retryAfterInvalid(value: String) {
        #expect(RetryAfter.duration(from: HTTPHeaders([("Retry-After", value), ("x-ratelimit-reset-requests", value)])) == nil)
    }

    @Test("the redactor removes the exact key and any sk- token")
    func redactor() {
        let redactor = APIKeyRedactor(key: "custom-key-123")
        #expect(redactor("a custom-key-123 b sk-proj-ab**cd c") == "a [redacted] b [redacted] c")
        #expect(APIKeyRedactor(key: nil)("no secrets") == "no secrets")
    }
}
