import Foundation
import HybridStore
import HybridTestSupport
import Testing

/// A classifier whose answers keep every format constraint but give the wrong label: with `label_match` the case
/// fails (it decides pass/fail), so `compare` lists the pass→fail flips and adherence drops, where a format-only
/// "passed" would have shown nothing.
@Suite struct LabelCorrectnessCLITests {
    /// Four cases; the input says which label is right, so a server that reads it answers correctly.
    private static func writeLabels(_ fixture: CLIFixture) throws -> String {
        let lines = [("a", "positive"), ("b", "negative"), ("c", "positive"), ("d", "negative")].map { id, label in
            #"{"id": "\#(id)", "input": {"input": "Message \#(id) is \#(label)."}, "reference": {"labels": ["\#(label)"]}}"#
        }
        try lines.joined(separator: "\n").write(toFile: fixture.path("labels.jsonl"), atomically: true, encoding: .utf8)
        return fixture.path("labels.jsonl")
    }

    @Test func wrongLabelsFailCasesAndShowAsPassToFailFlips() async throws {
        let reading = try FakeChatCompletionsServer { prompt, _ in .reply(prompt.contains("negative") ? "negative" : "positive") }
        defer { reading.stop() }
        let constant = try FakeChatCompletionsServer { _, _ in .reply("positive") }
        defer { constant.stop() }
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let dataset = try Self.writeLabels(fixture)
        let good = try fixture.writeConfig("good.json", models: ["clf"], baseURL: reading.baseURL)
        let bad = try fixture.writeConfig("bad.json", models: ["clf"], baseURL: constant.baseURL)
        let common = ["--feature", "summarize", "--dataset", dataset, "--variants", "concise", "--db", fixture.database, "--scorers", "label_match"]
        for (config, run) in [(good, "right"), (bad, "wrong")] {
            let eval = try await fixture.hybrid(["eval", "--config", config, "--run-id", run] + common)
            #expect(eval.status == 0, "\(eval.output)")
        }
        let compare = try await fixture.hybrid(["compare", "right", "wrong", "--db", fixture.database, "--format", "md,json"])
        #expect(compare.output.contains("flipped cases (right → wrong): 2 pass→fail, 0 fail→pass"), "\(compare.output)")
        #expect(compare.output.contains("pass→fail: b, d"), "\(compare.output)")
        let markdown = try String(contentsOfFile: fixture.path("reports/compare-right-vs-wrong/report.md"), encoding: .utf8)
        #expect(markdown.contains("label_match"), "\(markdown)")
    }

    @Test func aNumericScorerGivenAThresholdDecidesPassFail() async throws {
        let server = try FakeChatCompletionsServer { _, _ in .reply("positive") }
        defer { server.stop() }
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let dataset = fixture.path("text.jsonl")
        try #"{"id": "t", "input": {"input": "x"}, "reference": {"expectedText": "positive mood"}}"#
            .write(toFile: dataset, atomically: true, encoding: .utf8)
        let config = try fixture.writeConfig("c.json", models: ["m"], baseURL: server.baseURL)
        let common = ["eval", "--config", config, "--feature", "summarize", "--dataset", dataset, "--variants", "concise", "--db", fixture.database]
        // token_f1 of "positive" against "positive mood" is 2/3: below 0.9, at least 0.5.
        for (threshold, run, passes) in [("0.9", "strict", false), ("0.5", "lenient", true)] {
            let eval = try await fixture.hybrid(common + ["--run-id", run, "--scorers", "token_f1>=\(threshold)"])
            #expect(eval.status == 0, "\(eval.output)")
            let result = try #require(try await SQLiteResultStore(path: fixture.database).results(run: run).first)
            let check = try #require(result.constraints.first { $0.name == "token_f1" }, "\(result.constraints)")
            #expect(check.passed == passes)
            #expect(result.allConstraintsPassed == passes)
        }
        let unknown = try await fixture.hybrid(common + ["--scorers", "token_f1>=2"])
        #expect(unknown.status == 64, "\(unknown.output)")
    }
}
