import Foundation
import HybridCore
import HybridCurl
import HybridLocalModel
import HybridLocalModelTestSupport
import HybridProviders
import HybridTransport
import Testing

/// Runs against the real embedded model: llama.cpp's llama-server serving SmolLM2-135M-Instruct, installed by
/// `make setup` (which `make test` runs first). Nothing here is canned: every text comes from the model.
@Suite(.serialized) struct LocalLlamaModelTests {
    static let installation = LocalModelInstallation.discover()

    private func model(id: String = "local-smollm2") throws -> LocalLlamaModel {
        guard LocalModelRequirement.installed(Self.installation) != nil else { throw CancellationError() }
        return LocalLlamaModel(id: id, installation: Self.installation, transport: CurlTransport.shared)
    }

    @Test func aShortPromptStreamsRealTextWithReportedUsageAndTiming() async throws {
        let model = try model()
        #expect(await model.availability() == .available)
        let request = GenerationRequest(
            prompt: "Name one colour of the sky.", options: GenerationOptions(maxOutputTokens: 24, sampling: .greedy, seed: 7))
        var deltas: [String] = []
        var final: GenerationResponse?
        for try await event in model.stream(request) {
            switch event {
            case .delta(let text): deltas.append(text)
            case .completed(let response): final = response
            case .toolCallDelta: Issue.record("no tools were offered")
            }
        }
        let response = try #require(final)
        #expect(!response.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        #expect(deltas.joined() == response.text)
        #expect(response.servedBy == ModelIdentity(id: "local-smollm2", tier: .onDevice))
        #expect(response.usage.promptTokens > 0 && response.usage.completionTokens > 0)
        #expect(!response.usage.isEstimated)
        let ttft = try #require(response.timing.timeToFirstToken)
        #expect(ttft < response.timing.total)
        #expect((response.timing.decodeTokensPerSecond ?? 0) > 0)
    }

    @Test func aJSONSchemaRequestReturnsJSONWithTheRequiredKeys() async throws {
        let model = try model()
        let schema: JSONValue = [
            "type": "object",
            "properties": ["name": ["type": "string"], "company": ["type": "string"]],
            "required": ["name", "company"],
        ]
        let request = GenerationRequest(
            instructions: "Extract the person's name and company as JSON.",
            messages: [.user("Ada Lovelace works at Analytical Engines Ltd.")],
            options: GenerationOptions(maxOutputTokens: 80, sampling: .greedy),
            responseSchema: schema, responseSchemaName: "person")
        let response = try await model.generate(request)
        let structured = try #require(response.structured)
        #expect(structured["name"]?.stringValue != nil)
        #expect(structured["company"]?.stringValue != nil)
        #expect(try JSONSchema(schema).validate(structured).isEmpty)
    }

    @Test func aPromptLongerThanTheContextWindowIsATypedError() async throws {
        let model = try model()
        let request = GenerationRequest(prompt: String(repeating: "word ", count: 5000), options: GenerationOptions(maxOutputTokens: 4))
        await #expect {
            _ = try await model.generate(request)
        } throws: { error in
            (error as? GenerationError)?.kind == .contextWindowExceeded
        }
    }

    @Test func aMissingInstallationIsUnavailableWithTheFixCommand() async throws {
        let missing = LocalModelInstallation.discover(environment: [:], searchingFrom: "/")
        guard case .failure(let reason) = missing, case .notInstalled(let what, let fix) = reason else {
            Issue.record("expected notInstalled, got \(missing)")
            return
        }
        #expect(fix == "make setup")
        #expect(what.hasPrefix("llama-server (looked at: HYBRID_LLAMA_SERVER in the environment; .hybrid/local-model.env in /"))
        let model = LocalLlamaModel(id: "local-x", installation: missing, transport: CurlTransport.shared)
        #expect(await model.availability() == .unavailable(reason))
        #expect(await model.availability().description.hasSuffix("is not installed; run `make setup`"))
        await #expect(throws: GenerationError.unavailable(model: "local-x", reason: reason)) {
            _ = try await model.generate(GenerationRequest(prompt: "hi"))
        }
    }

    @Test func stoppingTheServerKillsTheProcessAndTheNextRequestStartsAFreshOne() async throws {
        guard let found = LocalModelRequirement.installed(Self.installation) else { return }
        // A private server (not the shared one) so stopping it cannot disturb the other tests.
        let server = LlamaServerProcess(configuration: .init(installation: found, contextSize: 1024), transport: CurlTransport.shared)
        let base = try await server.start()
        #expect(base.hasPrefix("http://127.0.0.1:"))
        let pid = try #require(await server.processIdentifier)
        #expect(kill(pid, 0) == 0)
        #expect(await server.health() == .available)
        #expect(await server.takeColdFlag())
        #expect(await !server.takeColdFlag())
        await server.stop()
        #expect(kill(pid, 0) != 0)
        #expect(await server.health() != .available)
        let again = try await server.start()
        #expect(await server.takeColdFlag())
        #expect(again.hasPrefix("http://127.0.0.1:"))
        await server.stop()
    }
}
