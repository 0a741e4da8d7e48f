import Foundation
@testable import HybridCore
@testable import HybridProviders
@testable import HybridTesting
@testable import HybridTransport
@testable import HybridValidation
import Testing

/// Every provider registered here runs every check below against its own loopback fixture server, through the
/// `URLSessionTransport`, the transport apps use (the harness runs the same fixtures over libcurl in the eval tests). To add a provider: write its `ProviderFixture` and add one line.
enum ConformanceFixtures {
    static let all: [any ProviderFixture] = [
        OpenAICompatibleFixture(),
        AnthropicFixture(),
        GeminiFixture(),
        OllamaFixture(),
    ]

    static var arguments: [FixtureArgument] { all.map { FixtureArgument(fixture: $0) } }
    static var errorCases: [FixtureErrorCase] {
        all.flatMap { fixture in fixture.errors.map { FixtureErrorCase(fixture: fixture, errorCase: $0) } }
    }
}

/// The package's own adapters under `ProviderConformance` (HybridTesting), each check its own test per provider.
@Suite("Provider conformance")
struct ConformanceSuite {
    /// The transport every fixture's model sends through.
    static let transport = URLSessionTransport()
    static let personSchema = ProviderConformance.personSchema

    @Test("plain text: text, usage, identity and request shape", arguments: ConformanceFixtures.arguments)
    func plainText(_ argument: FixtureArgument) async throws {
        try await ProviderConformance.plainText(argument.fixture)
    }

    @Test("streaming: deltas in order, one final completed, TTFT < total, usage", arguments: ConformanceFixtures.arguments)
    func streaming(_ argument: FixtureArgument) async throws {
        try await ProviderConformance.streaming(argument.fixture)
    }

    @Test("a stream written one byte at a time decodes to the same text and usage", arguments: ConformanceFixtures.arguments)
    func byteByByteStream(_ argument: FixtureArgument) async throws {
        try await ProviderConformance.byteByByteStream(argument.fixture)
    }

    @Test("structured output parses against the schema (generate and stream)", arguments: ConformanceFixtures.arguments)
    func structuredOutput(_ argument: FixtureArgument) async throws {
        try await ProviderConformance.structuredOutput(argument.fixture)
    }

    @Test("typed output: the derived schema in native form, decoded into the type, partial values only grow", arguments: ConformanceFixtures.arguments)
    func typedOutput(_ argument: FixtureArgument) async throws {
        try await ProviderConformance.typedOutput(argument.fixture)
    }

    @Test("a schema-valid answer that does not decode falls back to the next model", arguments: ConformanceFixtures.arguments)
    func typedFallback(_ argument: FixtureArgument) async throws {
        try await ProviderConformance.typedFallback(argument.fixture)
    }

    @Test("tool calls: tools and results sent in the wire format, calls decoded and streamed, bad arguments a check failure", arguments: ConformanceFixtures.arguments)
    func toolCallRoundTrip(_ argument: FixtureArgument) async throws {
        try await ProviderConformance.toolCallRoundTrip(argument.fixture)
    }

    @Test("each documented error maps to its typed error; the key never leaks", arguments: ConformanceFixtures.errorCases)
    func documentedError(_ argument: FixtureErrorCase) async throws {
        try await ProviderConformance.documentedError(argument.fixture, argument.errorCase)
    }

    @Test("a missing key makes the model unavailable and nothing is sent", arguments: ConformanceFixtures.arguments)
    func missingKey(_ argument: FixtureArgument) async throws {
        try await ProviderConformance.missingKey(argument.fixture)
    }

    @Test("cancelling the consumer stops the stream and closes the connection", arguments: ConformanceFixtures.arguments)
    func cancellation(_ argument: FixtureArgument) async throws {
        try await ProviderConformance.cancellation(argument.fixture)
    }
}
