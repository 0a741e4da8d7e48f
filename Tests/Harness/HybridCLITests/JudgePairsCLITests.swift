import Foundation
import HybridReport
import HybridStore
import HybridTestSupport
import Testing

/// `hybrid judge-pairs` on a stored run: a judge that always answers "A" is inconsistent on every case and is not
/// trusted; a judge that served one of the arms is warned about; people's labels are read by file and line (#51).
@Suite("hybrid judge-pairs")
struct JudgePairsCLITests {
    @Test func aPositionBiasedJudgeIsShownAndNotTrusted() async throws {
        let fake = try FakeChatCompletionsServer.alwaysFirstJudge()
        defer { fake.stop() }
        let (fixture, evalArguments) = try CLIFixture.summarizing(models: ["fake-a", "fake-b"], baseURL: fake.baseURL, cases: 6)
        defer { fixture.remove() }
        let config = fixture.path("c.json")
        let eval = try await fixture.hybrid(["eval", "--run-id", "r1"] + evalArguments)
        #expect(eval.status == 0, "\(eval.output)")
        let arms = Set(try await SQLiteResultStore(path: fixture.database).results(run: "r1").map(\.key.armID)).sorted()
        let a = try #require(arms.first { $0.contains("concise") && $0.contains("fake-a") })
        let b = try #require(arms.first { $0.contains("concise") && $0.contains("fake-b") })

        let labels = fixture.directory.appendingPathComponent("labels.jsonl")
        try (1...6).map { #"{"case": "k\#($0)", "preferred": "\#($0.isMultiple(of: 2) ? a : b)"}"# }.joined(separator: "\n")
            .write(to: labels, atomically: true, encoding: .utf8)
        let out = fixture.directory.appendingPathComponent("pairs").path
        let judged = try await fixture.hybrid([
            "judge-pairs", "r1", "--arms", "\(a),\(b)", "--judge", "fake-a", "--labels", labels.path, "--out", out,
            "--config", config, "--db", fixture.database,
        ])
        #expect(judged.status == 0, "\(judged.output)")
        #expect(judged.output.contains("| inconsistent (orders disagree) | 6 |"), "\(judged.output)")
        #expect(judged.output.contains("position-swap inconsistency: 100.0 %"), "\(judged.output)")
        #expect(judged.output.contains("agreement with people: not measured"), "no consistent verdict to compare")
        #expect(judged.output.contains("no second judge"), "the judge served arm A")
        #expect(judged.output.contains("**The judge is not reliable enough to decide on**"))
        let summary = try JSONDecoder().decode(
            PairwiseSummary.self, from: Data(contentsOf: URL(fileURLWithPath: "\(out)/pairwise-\(a)-vs-\(b).json")))
        #expect(summary.cases.count == 6 && summary.inconsistent == 6 && summary.judgeTokens > 0)

        try #"{"case": "k1", "preferred": "someone"}"#.write(to: labels, atomically: true, encoding: .utf8)
        let bad = try await fixture.hybrid([
            "judge-pairs", "r1", "--arms", "\(a),\(b)", "--judge", "fake-a", "--labels", labels.path, "--config", config, "--db", fixture.database,
        ])
        #expect(bad.status == 1 && bad.output.contains("labels.jsonl:1: preferred \"someone\""), "\(bad.output)")
    }
}
