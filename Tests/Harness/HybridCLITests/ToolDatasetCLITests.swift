import Foundation
import HybridConfig
import HybridConfigTools
import HybridCore
import HybridReport
import HybridStore
import HybridTestSupport
import Testing

/// The bundled tool-call dataset through the real `hybrid` CLI: two OpenAI-compatible loopback servers speaking the
/// documented chat-completions wire format (https://platform.openai.com/docs/guides/function-calling), one that
/// always calls `set_timer` with 10 minutes and one that always answers in text, so the expected per-arm accuracy is
/// known from the dataset: the caller matches only the timer case, the texter only the cases expecting no call.
@Suite struct ToolDatasetCLITests {
    static func server(_ body: JSONValue) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { _ in .json(body.canonicalJSON) }
    }

    static func completion(message: JSONValue, finish: String) -> JSONValue {
        [
            "id": "chatcmpl-1", "object": "chat.completion", "created": 1_700_000_000, "model": "fake",
            "choices": [["index": 0, "message": message, "finish_reason": .string(finish)]],
            "usage": ["prompt_tokens": 200, "completion_tokens": 10, "total_tokens": 210],
        ]
    }

    @Test func theToolDatasetReportsToolCallAccuracyPerArm() async throws {
        let call: JSONValue = ["id": "call_1", "type": "function", "function": ["name": "set_timer", "arguments": #"{"minutes": 10}"#]]
        let caller = try Self.server(Self.completion(message: ["role": "assistant", "content": nil, "tool_calls": [call]], finish: "tool_calls"))
        defer { caller.stop() }
        let texter = try Self.server(Self.completion(message: ["role": "assistant", "content": "Happy to help!"], finish: "stop"))
        defer { texter.stop() }
        let fixture = try CLIFixture()
        defer { fixture.remove() }

        var document = try HybridConfigDocument.bundledDefaults().document
        func model(_ url: String) -> ModelConfig {
            ModelConfig(
                kind: .openAICompatible, baseURL: url + "/v1", model: "fake", tier: .privateCloud, pricing: .free,
                contextWindow: 8192, capabilities: .init(structuredOutput: true, streaming: false))
        }
        document.models = ["caller": model(caller.baseURL), "texter": model(texter.baseURL)]
        var feature = try #require(document.features["assistant"])
        feature.priority = ["caller", "texter"]
        document.features = ["assistant": feature]
        document.rollouts = [:]
        let config = fixture.path("c.json")
        try document.encodedJSON().write(to: URL(fileURLWithPath: config))
        let dataset = FileManager.default.currentDirectoryPath + "/datasets/tools.jsonl"
        let cases = try ToolDatasetExpectations(path: dataset)

        let eval = try await fixture.hybrid([
            "eval", "--feature", "assistant", "--dataset", dataset, "--run-id", "tools", "--config", config, "--db", fixture.database,
        ])
        #expect(eval.status == 0, "\(eval.output)")
        // The tools went out in the request, in OpenAI's format.
        let sent = try JSONValue(parsing: try #require(caller.requests.first).bodyText)
        #expect(sent["tools"]?.arrayValue?.first?["type"] == "function")

        let report = try await fixture.hybrid(["report", "tools", "--db", fixture.database, "--out", fixture.path("out"), "--format", "json,md"])
        #expect(report.status == 0, "\(report.output)")
        let written = try RunReport.load(path: fixture.path("out/report.json"))
        let arms = try #require(written.features.first?.arms)
        func accuracy(_ model: String) -> ProportionSummary? {
            arms.first { $0.modelID == model }?.constraints.first { $0.name == "tool_call_match" }?.proportion
        }
        #expect(accuracy("caller")?.passed == cases.timerCases && accuracy("caller")?.total == cases.count)
        #expect(accuracy("texter")?.passed == cases.plainAnswerCases && accuracy("texter")?.total == cases.count)
        #expect((accuracy("texter")?.lower ?? 1) < (accuracy("texter")?.rate ?? 0), "a Wilson interval, not a bare rate")
        let markdown = try String(contentsOfFile: fixture.path("out/report.md"), encoding: .utf8)
        #expect(markdown.contains("Tool calls (errors count as failures):"))
        #expect(markdown.contains("tool_call_match [95% CI]"))
        #expect(written.features.first?.comparisons.contains { $0.metric == "adherence" } == true, "paired test between the arms")
    }
}

/// What the bundled dataset's expectations imply for the two scripted servers.
private struct ToolDatasetExpectations {
    var count: Int
    var timerCases: Int
    var plainAnswerCases: Int

    init(path: String) throws {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        var count = 0, timer = 0, plain = 0
        for line in lines {
            let expected = try JSONValue(parsing: String(line))["expected_tool_calls"]?.arrayValue ?? []
            count += 1
            if expected.isEmpty { plain += 1 }
            if expected.count == 1, expected[0]["name"] == "set_timer", expected[0]["arguments"]?["exact"] == ["minutes": 10] { timer += 1 }
        }
        self.count = count
        timerCases = timer
        plainAnswerCases = plain
    }
}
