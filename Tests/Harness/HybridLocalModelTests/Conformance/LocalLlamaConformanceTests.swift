import Foundation
import HybridCore
import HybridCurl
import HybridLocalModel
import HybridLocalModelTestSupport
import HybridProviders
import HybridRouter
import HybridTesting
import HybridTransport
import Testing

/// The conformance checks a real model can pass, run against the embedded llama.cpp model (SmolLM2-135M served
/// by llama-server, installed by `make setup`): plain text, streaming order and TTFT, reported usage, and
/// structured output. Nothing is canned, so texts are checked for invariants rather than equality. Calls are few
/// and capped at 16 output tokens because the machine is slow. A missing installation FAILS these tests.
@Suite("Provider conformance: local llama.cpp (real model)", .serialized)
struct LocalLlamaConformanceTests {
    static let installation = LocalModelInstallation.discover()

    private func model() throws -> LocalLlamaModel {
        guard LocalModelRequirement.installed(Self.installation) != nil else { throw CancellationError() }
        return LocalLlamaModel(id: "local-smollm2", installation: Self.installation, transport: CurlTransport.shared)
    }

    static let options = GenerationOptions(maxOutputTokens: 16, sampling: .greedy, seed: 7)

    @Test("plain text with reported usage")
    func plainText() async throws {
        let model = try model()
        let response = try await model.generate(GenerationRequest(prompt: "Name one colour of the sky.", options: Self.options))
        ConformanceChecks.checkPlainText(response, model: model, expected: nil)
        #expect(response.usage.completionTokens <= 16)
    }

    @Test("streaming: deltas in order, one final completed, TTFT < total, usage")
    func streaming() async throws {
        let model = try model()
        let run = await ConformanceChecks.run(model.stream(GenerationRequest(prompt: "Count: one, two,", options: Self.options)))
        try ConformanceChecks.checkStream(run, model: model, expected: nil)
    }

    @Test("structured output parses against the schema")
    func structuredOutput() async throws {
        let model = try model()
        let schema: JSONValue = [
            "type": "object", "properties": ["ok": ["type": "boolean"]], "required": ["ok"], "additionalProperties": false,
        ]
        let request = GenerationRequest(
            instructions: "Answer with JSON.", messages: [.user("Is the sky blue? Reply as {\"ok\": true or false}.")],
            options: Self.options, responseSchema: schema, responseSchemaName: "answer")
        let response = try await model.generate(request)
        try ConformanceChecks.checkStructured(response, schema: schema, expected: nil)
    }

    struct Answer: StructuredOutput {
        var ok: Bool
    }

    @Test("typed output: the type's schema constrains the real model, the answer decodes, partial values only grow")
    func typedOutput() async throws {
        let model = try model()
        var request = GenerationRequest(
            instructions: "Answer with JSON.", messages: [.user("Is the sky blue? Reply as {\"ok\": true or false}.")],
            options: Self.options, responseSchema: try Answer.schema, responseSchemaName: "answer")
        let response = try await model.generate(request)
        _ = try JSONValueDecoder().decode(Answer.self, from: try #require(response.structured))
        request.options = Self.options
        let run = await ConformanceChecks.run(model.stream(request))
        #expect(run.error == nil, "\(String(describing: run.error))")
        var text = ""
        var sizes: [Int] = []
        for delta in run.deltas {
            text += delta
            sizes.append(PartialJSON.parse(text)?.objectValue?.count ?? 0)
        }
        #expect(sizes == sizes.sorted() && sizes.last == 1, "\(sizes)")
        _ = try JSONValueDecoder().decode(Answer.self, from: try #require(PartialJSON.parse(text)))
    }

    @Test("typed partials through the router: they only grow and the last is the final value")
    func typedPartials() async throws {
        // Greedy and seeded: sampled at the server's default temperature, SmolLM2-135M sometimes wrote a value until
        // the 1,024-token default cut the JSON short (two full serial runs of 2026-12-01 failed so, 20 s each).
        let router = try Router(
            models: [.model(try model())], instructions: "Answer with JSON only.",
            options: .init(temperature: 0, maxOutputTokens: 128, seed: 7))
        // The real model writes what it writes; the check is on the partials, not on who Ada works for.
        _ = try await ProviderConformance.expectGrowingPartials(
            router.streamResponse(to: "Ada Lovelace works at Analytical Engines Ltd. Her name and company?",
                                  generating: ProviderConformance.Person.self))
    }

    /// llama-server runs with `--jinja`, so it takes `tools`, an assistant turn with `tool_calls` and a `tool` turn.
    /// SmolLM2-135M may answer in text or call any tool with any arguments: what it chose is not asserted, only
    /// that the request is accepted, the answer decodes, streamed fragments assemble to the completed calls, and
    /// the calls go through the `tool_arguments` check as results rather than errors.
    @Test("a tool conversation is accepted, decodes and streams; whatever it calls is checked, not trusted")
    func toolRequest() async throws {
        let model = try model()
        var request = ProviderConformance.toolRequest
        // One streamed call, short: the tool prompt llama.cpp builds is long for this machine's 2 cores.
        request.options = GenerationOptions(maxOutputTokens: 24, sampling: .greedy, seed: 7)
        let run = await ConformanceChecks.run(model.stream(request))
        #expect(run.error == nil, "\(String(describing: run.error))")
        let final = try #require(run.completed.first)
        #expect(!final.text.isEmpty || !final.toolCalls.isEmpty)
        var assembler = ToolCallAssembler()
        run.toolCallDeltas.forEach { assembler.add($0) }
        #expect(assembler.calls == final.toolCalls)
        let checks = OutputChecks(schema: nil, constraints: nil, tools: request.tools)
        #expect(checks.evaluate(final).results.map(\.name) == (final.toolCalls.isEmpty ? [] : ["tool_arguments"]))
        #expect(final.text == run.deltas.joined())
    }
}

