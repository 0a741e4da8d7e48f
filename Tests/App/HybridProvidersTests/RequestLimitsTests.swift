import Foundation
@testable import HybridCore
@testable import HybridProviders
@testable import HybridTestSupport
@testable import HybridTransport
@testable import HybridValidation
import Testing

/// What the engine hands the transport: every timeout within the request's deadline, a body limit sized by the
/// output-token budget, and llama.cpp's server-side timings kept beside the client's.
@Suite("Request limits and server timings")
struct RequestLimitsTests {
    @Test("a 2 s deadline caps the connect, first-byte and total timeouts; 512 output tokens cap the body")
    func deadlineAndBudgetReachTheTransport() async throws {
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(OpenAIWireFixtures.llamaCppCompletion))
        var request = GenerationRequest(prompt: "x", options: GenerationOptions(maxOutputTokens: 512))
        request.deadline = .now + .seconds(2)
        _ = try await TestModels.model(transport).generate(request)
        let sent = try #require(await transport.requests.first)
        for limit in [sent.timeouts.connect, sent.timeouts.firstByte, sent.timeouts.total] {
            let value = try #require(limit)
            #expect(value <= .seconds(2) && value > .seconds(1))
        }
        #expect(sent.maxBodyBytes == 512 * 1024 + 256 * 1024)
    }

    @Test("without an output budget the configured maxResponseBytes is the limit")
    func noBudgetMeansTheCeiling() async throws {
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(OpenAIWireFixtures.llamaCppCompletion))
        _ = try await TestModels.model(transport).generate(GenerationRequest(prompt: "x"))
        #expect(await transport.requests.first?.maxBodyBytes == 32 << 20)
    }

    @Test("llama.cpp timings.prompt_ms and predicted_ms are kept as server-side times")
    func serverTimings() async throws {
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(OpenAIWireFixtures.llamaCppCompletion))
        let response = try await TestModels.model(transport).generate(GenerationRequest(prompt: "x"))
        #expect(response.timing.serverPromptTime == .microseconds(85_200))
        #expect(response.timing.serverGenerationTime == .microseconds(33_100))
    }
}
