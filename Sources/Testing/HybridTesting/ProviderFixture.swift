import Foundation
public import HybridCore
public import HybridTestSupport
public import Logging
public import Testing

/// One provider under the conformance suite: how to build its model against a loopback server, and the wire
/// bytes (in the provider's documented format) for every scenario the suite runs.
///
/// Adding a provider means writing one type conforming to this protocol (its fixture server is
/// `LoopbackHTTPServer` replaying these bytes) and running `ProviderConformance.checkAll(fixture)` (or each check
/// as its own test).
public protocol ProviderFixture: Sendable {
    /// Short name shown in test output.
    var name: String { get }
    /// A distinctive fake key put in the model's environment; it must never appear in an error or a log line.
    var apiKey: String { get }
    /// The environment variable the model reads the key from.
    var apiKeyVariable: String { get }

    /// The model under test, pointed at `baseURL` (the loopback server), reading `environment`, logging to `logger`.
    func makeModel(baseURL: String, environment: [String: String], logger: Logger) -> any LanguageModel

    /// A non-streaming plain-text answer.
    var plainText: WireFixture { get }
    /// What `plainText` must decode to.
    var plainTextExpected: ExpectedOutput { get }
    /// A streamed answer.
    var stream: WireFixture { get }
    /// What `stream` must decode to.
    var streamExpected: ExpectedStream { get }
    /// Structured output answering `ProviderConformance.personSchema` with `ProviderConformance.personExpected`.
    var structured: WireFixture { get }
    /// The same, streamed.
    var structuredStream: WireFixture { get }
    /// The beginning of a stream up to and including its first text delta; the server then stalls.
    var streamHead: WireFixture { get }
    /// Every documented error, each with the `GenerationError` it must become.
    var errors: [ErrorCase] { get }

    /// A non-streaming answer to `ProviderConformance.toolRequest` that calls `convert_units` with
    /// `ProviderConformance.toolCallArguments`.
    var toolCall: WireFixture { get }
    /// The same call, streamed (in argument fragments where the provider streams them).
    var toolCallStream: WireFixture { get }
    /// A non-streaming answer calling `convert_units` with arguments its schema rejects (`"to": "fortnights"`).
    var invalidToolCall: WireFixture { get }
    /// The id the provider gives the call in these fixtures (`call_0` where the provider sends none).
    var toolCallID: String { get }

    /// Checks the request as it reached the server: path, headers (key placement) and body fields.
    func verifyRequest(_ request: RecordedRequest, stream: Bool, structured: Bool) throws
    /// Checks the body of `ProviderConformance.toolRequest` in the provider's format: both tools with their
    /// schemas, the tool choice where the provider has one, the earlier call and its result.
    func verifyToolRequest(_ body: JSONValue) throws
}

/// Text, usage and finish reason a fixture must decode to.
public struct ExpectedOutput: Sendable {
    /// The exact text.
    public var text: String
    /// The provider's reported usage.
    public var usage: TokenUsage
    /// Why generation stopped.
    public var finishReason: FinishReason
    /// The model name the provider reports, when checked.
    public var providerModel: String?

    /// What a plain-text fixture must decode to.
    public init(text: String, usage: TokenUsage, finishReason: FinishReason = .stop, providerModel: String? = nil) {
        self.text = text
        self.usage = usage
        self.finishReason = finishReason
        self.providerModel = providerModel
    }
}

/// Deltas (in order) and usage a streamed fixture must decode to.
public struct ExpectedStream: Sendable {
    /// The text deltas, in order.
    public var deltas: [String]
    /// The provider's reported usage.
    public var usage: TokenUsage

    /// What a streamed fixture must decode to.
    public init(deltas: [String], usage: TokenUsage) {
        self.deltas = deltas
        self.usage = usage
    }
}

/// One documented error and the typed error it must map to.
public struct ErrorCase: Sendable, CustomTestStringConvertible {
    /// The provider's name, for test output.
    public var provider: String
    /// The scenario, for test output.
    public var name: String
    /// The error response as the provider sends it.
    public var response: WireFixture
    /// Sent to `stream` (mid-stream errors) rather than `generate`.
    public var streaming: Bool
    /// The kind the error must map to.
    public var expected: GenerationError.Kind
    /// Further facts about the error (retryability, retry-after), beyond its kind.
    public var check: @Sendable (GenerationError) -> Bool
    /// A request other than the default one (Ollama's truncation case needs a long prompt).
    public var request: GenerationRequest?

    /// A documented error case.
    public init(
        provider: String, name: String, response: WireFixture, streaming: Bool = false, expected: GenerationError.Kind,
        check: @escaping @Sendable (GenerationError) -> Bool = { _ in true }, request: GenerationRequest? = nil
    ) {
        self.provider = provider
        self.name = name
        self.response = response
        self.streaming = streaming
        self.expected = expected
        self.check = check
        self.request = request
    }

    public var testDescription: String { "\(provider): \(name) → \(expected.rawValue)" }
}

/// A fixture paired with one of its error cases, as a test argument.
public struct FixtureErrorCase: Sendable, CustomTestStringConvertible {
    /// The provider.
    public var fixture: any ProviderFixture
    /// One of its documented errors.
    public var errorCase: ErrorCase

    /// Pairs a fixture with one of its errors.
    public init(fixture: any ProviderFixture, errorCase: ErrorCase) {
        self.fixture = fixture
        self.errorCase = errorCase
    }

    public var testDescription: String { errorCase.testDescription }
}

/// A fixture as a test argument, named in the test output.
public struct FixtureArgument: Sendable, CustomTestStringConvertible {
    /// The provider.
    public var fixture: any ProviderFixture

    /// Wraps a fixture for `@Test(arguments:)`.
    public init(fixture: any ProviderFixture) {
        self.fixture = fixture
    }

    public var testDescription: String { fixture.name }
}
