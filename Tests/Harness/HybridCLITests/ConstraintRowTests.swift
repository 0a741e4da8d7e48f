import Foundation
import HybridReport
import HybridStore
import HybridTestSupport
import Testing

/// A constraint with several patterns is one trial per output in every consumer: stored results, the report's
/// constraint rows and adherence, the gates built on them, and the route simulator.
@Suite("constraint rows count outputs")
struct ConstraintRowTests {
    @Test func twoMustNotContainPatternsReportOneTrialPerOutput() async throws {
        // Case N mentions fish when N is a multiple of 4 and FOTH when a multiple of 3 (12 has both).
        let fake = try FakeChatCompletionsServer { prompt, _ in
            let n = CLIFixture.caseNumber(in: prompt) ?? 1
            let text = ["Production is blocking the feeds.", n % 4 == 0 ? "The fish tank was on camera." : nil,
                        n % 3 == 0 ? "Ask FOTH about it." : nil].compactMap { $0 }.joined(separator: " ")
            return .reply(text)
        }
        defer { fake.stop() }
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let config = try fixture.writeConfig("c.json", models: ["fake-a"], baseURL: fake.baseURL) {
            $0.constraints = .init(mustNotContain: [.phrase("fish"), .phrase("FOTH")])
        }
        let dataset = try fixture.writeDataset("cases.jsonl", count: 16)
        let eval = try await fixture.hybrid([
            "eval", "--feature", "summarize", "--dataset", dataset, "--run-id", "news", "--config", config, "--db", fixture.database,
        ])
        #expect(eval.status == 0, "\(eval.output)")
        // What caps the run is said before it starts: a hosted model left at its kind's default.
        #expect(eval.output.contains("concurrency: 32 in flight overall (--concurrency); per model: fake-a 16 (default for openai-compatible)"), "\(eval.output)")

        let cases = 16
        let clean = (1...cases).count { $0 % 4 != 0 && $0 % 3 != 0 }
        let results = try await SQLiteResultStore(path: fixture.database).results(run: "news")
        #expect(results.count == cases * 2)
        #expect(results.allSatisfy { $0.constraints.map(\.name) == ["must_not_contain"] })
        let both = try #require(results.first { $0.key.caseID == "k12" })
        #expect(both.constraints[0].message?.contains(#""fish" once"#) == true && both.constraints[0].message?.contains(#""FOTH" once"#) == true)

        let gates = fixture.path("gates.json")
        try #"{"features": {"summarize": {"*": {"minAdherenceLower": 0.0}}}}"#.write(toFile: gates, atomically: true, encoding: .utf8)
        let report = try await fixture.hybrid(["report", "news", "--db", fixture.database, "--out", fixture.path("out"), "--format", "json", "--gate", gates])
        #expect(report.status == 0, "\(report.output)")
        let written = try RunReport.load(path: fixture.path("out/report.json"))
        let arms = try #require(written.features.first?.arms)
        #expect(arms.count == 2)
        for arm in arms {
            let row = try #require(arm.constraints.first { $0.name == "must_not_contain" })
            #expect(arm.constraints.count == 1)
            #expect(row.proportion.total == cases && row.proportion.passed == clean, "\(row)")
            #expect(arm.adherence?.total == cases && arm.adherence?.passed == clean)
        }
        let gate = try #require(written.gates?.results.first { $0.gate == "minAdherenceLower" })
        #expect(gate.message.contains("(\(clean)/\(cases) passed"), "\(gate.message)")

        // The simulator (and the recommender built on it) judges each output once as well.
        let simulated = try await fixture.hybrid(["simulate", "news", "--order", "fake-a", "--variant", "concise", "--db", fixture.database])
        #expect(simulated.status == 0, "\(simulated.output)")
        #expect(simulated.output.contains("adherence: 50.0% (\(clean)/\(cases))"), "\(simulated.output)")
    }
}
