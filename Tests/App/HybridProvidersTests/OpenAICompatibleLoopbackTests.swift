import Foundation
@testable import HybridCore
@testable import HybridProviders
@testable import HybridTestSupport
@testable import HybridTesting
@testable import HybridTransport
@testable import HybridValidation
import Testing

/// The same wire fixtures as the scripted tests, sent through `URLSessionTransport` (what apps use) by an
/// in-process HTTP server on 127.0.0.1 (OS-chosen port). Proves the adapter works over real sockets, chunked framing
/// and the transport's own chunking of the body. The harness's libcurl transport runs the same conformance suite
/// (`TransportConformanceTests`) and carries every eval.
@Suite("OpenAI-compatible over URLSessionTransport and LoopbackHTTPServer")
struct OpenAICompatibleLoopbackTests {
    static let transport = URLSessionTransport()

    /// Serves `fixture` byte for byte (see `WireFixture.scripted`).
    static func scripted(_ fixture: WireFixture, chunkSize: Int = 17, delay: Duration? = nil) -> ScriptedResponse {
        fixture.scripted(chunkSize: chunkSize, delay: delay)
    }

    static func model(_ server: LoopbackHTTPServer) -> OpenAICompatibleModel {
        TestModels.model(
            transport,
            config: TestModels.config(baseURL: server.baseURL + "/v1"),
            settings: HTTPWireSettings(timeouts: HTTPTimeouts(connect: .seconds(10), total: .seconds(60)))
        )
    }

    @Test("OpenAI stream over the wire: deltas in order, one completed with usage; request as sent")
    func openAIStream() async throws {
        let server = try LoopbackHTTPServer { _ in Self.scripted(OpenAIWireFixtures.openAIStream) }
        defer { server.stop() }
        let outcome = await drain(Self.model(server).stream(GenerationRequest(prompt: "Hi")))
        #expect(outcome.error == nil)
        #expect(outcome.deltas.joined() == OpenAIWireFixtures.openAIStreamDeltas.joined())
        #expect(outcome.completed.count == 1)
        let response = try #require(outcome.completed.first)
        #expect(response.usage == TokenUsage(promptTokens: 9, completionTokens: 7))
        #expect(response.timing.timeToFirstToken.map { $0 <= response.timing.total } == true)

        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.pathWithoutQuery == "/v1/chat/completions")
        #expect(request.header("Authorization") == "Bearer \(OpenAIWireFixtures.apiKey)")
        let body = try JSONDecoder().decode(JSONValue.self, from: request.body)
        #expect(body["stream"] == true)
        #expect(body["stream_options"] == ["include_usage": true])
    }

    @Test("llama.cpp stream over the wire: timings give the decode speed")
    func llamaCppStream() async throws {
        let server = try LoopbackHTTPServer { _ in Self.scripted(OpenAIWireFixtures.llamaCppStream, chunkSize: 5) }
        defer { server.stop() }
        let outcome = await drain(Self.model(server).stream(GenerationRequest(prompt: "x")))
        #expect(outcome.deltas.joined() == "The sky is blue.")
        let response = try #require(outcome.completed.first)
        #expect(response.timing.decodeTokensPerSecond == 120.2)
        #expect(response.usage == TokenUsage(promptTokens: 28, completionTokens: 5))
    }

    @Test("non-streaming OpenAI completion over the wire")
    func openAICompletion() async throws {
        let server = try LoopbackHTTPServer { _ in Self.scripted(OpenAIWireFixtures.openAICompletion) }
        defer { server.stop() }
        let response = try await Self.model(server).generate(GenerationRequest(prompt: "x"))
        #expect(response.text == "The capital of France is Paris.")
        #expect(response.usage == TokenUsage(promptTokens: 1117, completionTokens: 46, cachedTokens: 1024, reasoningTokens: 12))
    }

    @Test("mid-stream error chunk over the wire")
    func midStreamError() async throws {
        let server = try LoopbackHTTPServer { _ in Self.scripted(OpenAIWireFixtures.midStreamError) }
        defer { server.stop() }
        let outcome = await drain(Self.model(server).stream(GenerationRequest(prompt: "x")))
        #expect(outcome.deltas == ["Partial"])
        guard let error = outcome.generationError, error.kind == .serverError, error.status == 500 else {
            Issue.record("expected serverError 500, got \(String(describing: outcome.error))")
            return
        }
    }

    @Test("every error fixture maps as with the scripted transport, and no description leaks the key",
          arguments: OpenAIErrorMappingTests.expectations)
    func errors(_ expectation: OpenAIErrorMappingTests.Expectation) async throws {
        let server = try LoopbackHTTPServer { _ in Self.scripted(expectation.fixture) }
        defer { server.stop() }
        let model = Self.model(server)
        let error = try #require(await generationError(model, GenerationRequest(prompt: "x")))
        #expect(expectation.check(error), "got \(error)")
        #expect(!OpenAIErrorMappingTests.leaksKey(error.description), "\(error.description)")
        let streamed = try #require(await drain(model.stream(GenerationRequest(prompt: "x"))).generationError)
        #expect(expectation.check(streamed), "got \(streamed)")
    }

    @Test("nothing listening: unavailable(.unreachable)")
    func unreachable() async throws {
        let server = try LoopbackHTTPServer { _ in ScriptedResponse.json("{}") }
        let baseURL = server.baseURL
        server.stop()
        let model = TestModels.model(Self.transport, config: TestModels.config(baseURL: baseURL + "/v1"))
        let error = await generationError(model, GenerationRequest(prompt: "x"))
        guard let error, error.kind == .unavailable, case .unreachable? = error.reason else {
            Issue.record("expected unavailable(.unreachable), got \(String(describing: error))")
            return
        }
    }

    @Test("cancelling the consumer mid-stream closes the connection")
    func cancelClosesConnection() async throws {
        // The rest of the stream waits on a signal nobody fires, not on a pause: on a loaded machine a pause of
        // seconds let the whole stream arrive before the consumer ran, and it then saw `.completed` (CI, 2 cores).
        let never = ServerSignal()
        let body = [UInt8](OpenAIWireFixtures.openAIStream.body)
        let eventEnds = body.indices.dropLast().filter { body[$0] == 10 && body[$0 + 1] == 10 }.map { $0 + 2 }
        let throughFirstDelta = eventEnds[1]  // the role event, then "Hello"
        let server = try LoopbackHTTPServer { _ in
            var response = Self.scripted(OpenAIWireFixtures.openAIStream, chunkSize: throughFirstDelta)
            response.parts.insert(.waitFor(never), at: 1)
            return response
        }
        defer { server.stop() }
        let model = Self.model(server)
        let consumer = Task {
            var sawCompleted = false
            for try await event in model.stream(GenerationRequest(prompt: "x")) {
                if case .completed = event { sawCompleted = true }
                if case .delta = event { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return sawCompleted
        }
        #expect(try await consumer.value == false)
        #expect(await server.waitUntil(timeout: .seconds(20)) { $0.abortedResponses == 1 })
        #expect(!never.isFired)
    }
}
