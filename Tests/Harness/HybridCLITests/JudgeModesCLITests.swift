import Foundation
import HybridReport
import HybridStore
import HybridTestSupport
import Synchronization
import Testing

/// Both judge modes through `hybrid eval --judge …` and `hybrid rescore`, reported in every format: pairwise verdicts
/// stored per case (a resumed pass does not ask again), rubric dimensions with rationales, the judge measured on
/// people's labels when the run starts and every report printing it, judgements cached so a re-run pays nothing, and
/// a budget the judge stays within (#51).
@Suite("Judge modes through eval and rescore")
struct JudgeModesCLITests {
    static let rubric = #"{"rubric": "Judge the summary.", "dimensions": [{"name": "accuracy", "description": "keeps the facts"}, {"name": "brevity", "description": "few words", "scale": 3}]}"#

    @Test func pairwiseThroughEvalReportAndResume() async throws {
        let fake = try FakeChatCompletionsServer.alwaysFirstJudge()
        defer { fake.stop() }
        let (fixture, evalArguments) = try CLIFixture.summarizing(models: ["fake-a", "fake-b"], baseURL: fake.baseURL, cases: 6)
        defer { fixture.remove() }
        let config = fixture.path("c.json")
        let arguments = evalArguments + ["--judge", "fake-b", "--judge-mode", "pairwise"]
        let eval = try await fixture.hybrid(["eval", "--run-id", "r1"] + arguments)
        #expect(eval.status == 0, "\(eval.output)")
        #expect(eval.output.contains("pairwise: 18 cases judged against concise@fake-a by fake-b"), "three arms against the current route")
        let verdicts = try await SQLiteResultStore(path: fixture.database).pairwiseVerdicts(run: "r1")
        #expect(verdicts.count == 18 && verdicts.allSatisfy { $0.outcome == .inconsistent })
        // bullet@fake-a and bullet@fake-b gave the same text to the same prompt: the same judgement, asked once.
        #expect(verdicts.filter { $0.judgeCostUSD == 0 }.map(\.armID) == Array(repeating: "bullet@fake-b", count: 6))
        let calls = fake.requestCount

        let resumed = try await fixture.hybrid(["eval", "--resume", "r1"] + arguments)
        #expect(resumed.status == 0 && resumed.output.contains("pairwise: 0 cases judged against concise@fake-a by fake-b, 18 already judged"), "\(resumed.output)")
        #expect(fake.requestCount == calls, "nothing asked again")

        let report = try await fixture.hybrid(["report", "r1", "--db", fixture.database])
        #expect(report.status == 0, "\(report.output)")
        let folder = fixture.directory.appendingPathComponent("reports/r1")
        let markdown = try String(contentsOf: folder.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(markdown.contains("| bullet@fake-b vs concise@fake-a | fake-b | 0 | 0 | 0 | 6 | 100 % [61 %, 100 %] of 6 |"), "\(markdown)")
        #expect(markdown.contains("fake-b judged its own arm and no second judge did"))
        let json = try JSONDecoder().decode(RunReport.self, from: Data(contentsOf: folder.appendingPathComponent("report.json")))
        #expect(json.pairwise?.count == 3 && json.pairwise?.allSatisfy { $0.inconsistent == 6 } == true)
        let junit = try String(contentsOf: folder.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(junit.contains("<testsuite name=\"judge.pairwise\" tests=\"3\""))
        let html = try String(contentsOf: folder.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.contains("<h2>Pairwise judgement</h2>"))

        let kept = try await fixture.hybrid(["rescore", "r1", "--run-id", "r1b", "--db", fixture.database, "--config", config])
        #expect(kept.status == 0 && fake.requestCount == calls, "\(kept.output)")
        #expect(try await SQLiteResultStore(path: fixture.database).pairwiseVerdicts(run: "r1b").count == 18, "same outputs, same verdicts")

        let misspelt = try await fixture.hybrid(["eval", "--run-id", "r9"] + evalArguments + ["--judge", "fake-c", "--judge-mode", "pairwise"])
        #expect(misspelt.status == 1 && misspelt.output.contains("unknown judge model \"fake-c\""), "\(misspelt.output)")
        #expect(fake.requestCount == calls, "refused before any arm was called")

        let unknown = try await fixture.hybrid(["rescore", "r1", "--db", fixture.database, "--config", config, "--judge", "fake-b", "--judge-mode", "pairwise", "--pairwise-baseline", "nope@x"])
        #expect(unknown.status == 1 && unknown.output.contains("--pairwise-baseline nope@x is not an arm of run"), "\(unknown.output)")
    }

    @Test func aKilledPairwisePassResumesWithoutAskingAgain() async throws {
        // The judge hangs the first time it is asked about case 4: the pass (arms in order, cases k1… in order) has
        // stored bullet@fake-a's k1–k3 when the process is killed.
        let asked = Mutex(false)
        let fake = try FakeChatCompletionsServer { prompt, attempt in
            guard prompt.contains("Reply with A, B or TIE only") else { return .reply("Case \(CLIFixture.caseNumber(in: prompt) ?? 0) was fine.") }
            if prompt.contains("Case 4") && attempt == 0 {
                asked.withLock { $0 = true }
                return .reply("TIE", delay: .seconds(12))
            }
            return .reply(prompt.contains("Case 2") ? "B" : "TIE")
        }
        defer { fake.stop() }
        let (fixture, evalArguments) = try CLIFixture.summarizing(models: ["fake-a", "fake-b"], baseURL: fake.baseURL, cases: 6)
        defer { fixture.remove() }
        let arguments = evalArguments + ["--judge", "fake-b", "--judge-mode", "pairwise", "--pairwise-baseline", "concise@fake-b"]
        // Killed the moment the judge is asked about case 4 (a minute at most, if it never is).
        let killed = try await fixture.hybrid(
            ["eval", "--run-id", "r1"] + arguments, killAfter: .seconds(60), killWhen: { asked.withLock { $0 } })
        #expect(killed.status != 0, "killed mid-pass: \(killed.output)")
        let before = try await SQLiteResultStore(path: fixture.database).pairwiseVerdicts(run: "r1").map { "\($0.armID) \($0.caseID)" }
        #expect(before == ["bullet@fake-a k1", "bullet@fake-a k2", "bullet@fake-a k3"])
        let resumed = try await fixture.hybrid(["eval", "--resume", "r1"] + arguments)
        #expect(resumed.status == 0, "\(resumed.output)")
        #expect(resumed.output.contains("pairwise: 15 cases judged against concise@fake-b by fake-b, 3 already judged"), "\(resumed.output)")
        let verdicts = try await SQLiteResultStore(path: fixture.database).pairwiseVerdicts(run: "r1")
        #expect(verdicts.count == 18)
        #expect(verdicts.filter { $0.caseID == "k2" }.allSatisfy { $0.outcome == .inconsistent }, "B in both orders flips")
        #expect(verdicts.filter { $0.caseID != "k2" }.allSatisfy { $0.outcome == .tie })
    }

    @Test func rubricDimensionsMeasuredCachedAndCapped() async throws {
        let fake = try FakeChatCompletionsServer { prompt, _ in
            prompt.contains("one line per dimension") ? .reply("accuracy: 4 - keeps the point\nbrevity: 2 - a bit long")
                : prompt.contains("Reply with a single digit") ? .reply("4") : .reply("The feeds were fine.")
        }
        defer { fake.stop() }
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let config = try fixture.writeConfig("c.json", models: ["fake-a"], baseURL: fake.baseURL)
        let dataset = try fixture.writeDataset("cases.jsonl", count: 5)
        #expect(try await fixture.hybrid(["eval", "--feature", "summarize", "--dataset", dataset, "--run-id", "r1", "--config", config, "--db", fixture.database]).status == 0)
        try Self.rubric.write(toFile: fixture.path("rubric.json"), atomically: true, encoding: .utf8)
        let labels = (1...12).map { #"{"id": "l\#($0)", "task": "Summarize.", "answer": "Answer \#($0).", "score": \#($0 % 5 + 1)}"# }
        try labels.joined(separator: "\n").write(toFile: fixture.path("labels.jsonl"), atomically: true, encoding: .utf8)
        let judging = [
            "--db", fixture.database, "--config", config, "--judge", "fake-a", "--rubric", "@rubric.json", "--judge-repeats", "2",
            "--judge-labels", "labels.jsonl",
        ]
        let rescored = try await fixture.hybrid(["rescore", "r1", "--run-id", "r2"] + judging)
        #expect(rescored.status == 0, "\(rescored.output)")
        #expect(rescored.output.contains("scored by the judge: 12 of 12"), "\(rescored.output)")
        let results = try await SQLiteResultStore(path: fixture.database).results(run: "r2")
        let accuracy = try #require(results.first?.scores.first { $0.scorer == "judge:accuracy" })
        #expect(accuracy.value == 0.75 && accuracy.detail?.contains("keeps the point") == true)
        #expect(results.allSatisfy { $0.scores.contains { $0.scorer == "judge" && abs($0.value - (0.75 + 0.5) / 2) < 1e-9 } })

        #expect(try await fixture.hybrid(["report", "r2", "--db", fixture.database]).status == 0)
        let folder = fixture.directory.appendingPathComponent("reports/r2")
        let markdown = try String(contentsOf: folder.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(markdown.contains("**Judge**: judge fake-a: weighted kappa 0.00 [0.00, 0.00] on 12 of 12 answers people scored (labels.jsonl): NOT reliable"), "\(markdown)")
        let json = try JSONDecoder().decode(RunReport.self, from: Data(contentsOf: folder.appendingPathComponent("report.json")))
        #expect(json.judgeReliability?.labels == "labels.jsonl")
        #expect(json.features.first?.scorers.contains("judge:brevity") == true)

        let calls = fake.requestCount
        #expect(try await fixture.hybrid(["rescore", "r1", "--run-id", "r3"] + judging).status == 0)
        #expect(fake.requestCount == calls, "every judgement (labels and outputs, both repeats) came from the cache")

        let capped = try await fixture.hybrid([
            "rescore", "r1", "--run-id", "r4", "--db", fixture.database, "--config", config, "--judge", "fake-a",
            "--rubric", "Be strict about brevity.", "--judge-budget", "0.0001",
        ])
        #expect(capped.status == 0, "\(capped.output)")
        #expect(capped.output.contains("10 judge calls did not fit and were not made"), "\(capped.output)")
        let judged = try await SQLiteResultStore(path: fixture.database).results(run: "r4").filter { $0.scores.contains { $0.scorer == "judge" } }
        #expect(judged.isEmpty, "a call whose worst case exceeds the budget is never sent; the results are stored unjudged")
    }

    @Test func aBadRubricFileIsNamedByJSONPath() async throws {
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let config = try fixture.writeConfig("c.json", models: ["fake-a"], baseURL: "http://127.0.0.1:9")
        try #"{"dimensions": [{"name": "accuracy", "description": "x"}, {"name": "tone", "description": "y", "scale": 1}]}"#
            .write(toFile: fixture.path("rubric.json"), atomically: true, encoding: .utf8)
        let check = try await fixture.hybrid([
            "judge-check", "--judge", "fake-a", "--rubric", "@rubric.json", "--labels", "none.jsonl", "--config", config,
        ])
        #expect(check.status == 1 && check.output.contains("rubric.json: $.dimensions[1].scale: expected an integer from 2 to 10"), "\(check.output)")
    }
}
