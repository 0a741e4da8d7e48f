import Foundation
import HybridTestSupport
import Testing

/// `hybrid judge-check`: a rubric judge scored against people's scores. One that gives people's own scores is
/// reliable (kappa 1); one that says 5 to everything is not, whatever its exact agreement on the good answers (#51).
@Suite("hybrid judge-check")
struct JudgeCheckCLITests {
    static func check(_ reply: @escaping @Sendable (String) -> String) async throws -> (status: Int32, output: String) {
        let fake = try FakeChatCompletionsServer { prompt, _ in .reply(reply(prompt)) }
        defer { fake.stop() }
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let config = try fixture.writeConfig("c.json", models: ["grader"], baseURL: fake.baseURL)
        let labels = fixture.directory.appendingPathComponent("labels.jsonl")
        try (0..<12).map { i in #"{"id": "a\#(i)", "task": "Summarize.", "answer": "answer worth \#(i % 5 + 1)", "score": \#(i % 5 + 1)}"# }
            .joined(separator: "\n").write(to: labels, atomically: true, encoding: .utf8)
        let outcome = try await fixture.hybrid(["judge-check", "--judge", "grader", "--labels", labels.path, "--config", config, "--db", fixture.database])
        return (outcome.status, outcome.output)
    }

    @Test func aJudgeThatAgreesWithPeopleIsReliableAndOneThatAlwaysSaysFiveIsNot() async throws {
        let agreeing = try await Self.check { prompt in
            prompt.range(of: "answer worth ").map { String(prompt[$0.upperBound]) } ?? "3"
        }
        #expect(agreeing.status == 0, "\(agreeing.output)")
        #expect(agreeing.output.contains("quadratic-weighted kappa: 1.00"), "\(agreeing.output)")
        #expect(agreeing.output.contains("reliable: kappa's lower bound 1.00 reaches 0.60 on 12 answers"), "\(agreeing.output)")

        let flattering = try await Self.check { _ in "5" }
        #expect(flattering.output.contains("exact agreement: 2 of 12"), "\(flattering.output)")
        #expect(flattering.output.contains("NOT reliable enough to decide on"), "\(flattering.output)")
    }

    @Test func aBadLabelLineIsNamed() async throws {
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let labels = fixture.directory.appendingPathComponent("labels.jsonl")
        try #"{"id": "a", "task": "t", "answer": "x", "score": 7}"#.write(to: labels, atomically: true, encoding: .utf8)
        let outcome = try await fixture.hybrid(["judge-check", "--judge", "local-smollm2", "--labels", labels.path, "--db", fixture.database])
        #expect(outcome.status == 1 && outcome.output.contains("labels.jsonl:1: expected"), "\(outcome.output)")
    }

    @Test("recommend takes a quality floor on judge scores only from a judge shown reliable against people")
    func recommendNeedsAReliableJudge() async throws {
        let fake = try FakeChatCompletionsServer { prompt, _ in
            if let worth = prompt.range(of: "answer worth ") { return .reply(String(prompt[worth.upperBound])) }
            return prompt.contains("Reply with a single digit") ? .reply("4") : .reply("The feeds were fine today.")
        }
        defer { fake.stop() }
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let config = try fixture.writeConfig("c.json", models: ["fake-a", "grader"], baseURL: fake.baseURL)
        let dataset = try fixture.writeDataset("cases.jsonl", count: 4)
        let eval = try await fixture.hybrid([
            "eval", "--feature", "summarize", "--dataset", dataset, "--run-id", "r1", "--models", "fake-a", "--judge", "grader",
            "--config", config, "--db", fixture.database,
        ])
        #expect(eval.status == 0, "\(eval.output)")
        let policy = fixture.directory.appendingPathComponent("policy.json")
        try #"{"defaults": {"maxQualityDrop": {"scorer": "judge", "value": 0.1}}}"#.write(to: policy, atomically: true, encoding: .utf8)
        let recommend = ["recommend", "r1", "--policy", policy.path, "--config", config, "--db", fixture.database]

        let unmeasured = try await fixture.hybrid(recommend)
        #expect(unmeasured.status == 1 && unmeasured.output.contains("judge grader), but the judge's agreement with people is unmeasured"), "\(unmeasured.output)")

        let labels = fixture.directory.appendingPathComponent("labels.jsonl")
        try (0..<12).map { i in #"{"id": "a\#(i)", "task": "Summarize.", "answer": "answer worth \#(i % 5 + 1)", "score": \#(i % 5 + 1)}"# }
            .joined(separator: "\n").write(to: labels, atomically: true, encoding: .utf8)
        let checkFile = fixture.directory.appendingPathComponent("check.json").path
        let check = try await fixture.hybrid([
            "judge-check", "--judge", "grader", "--labels", labels.path, "--out", checkFile, "--config", config, "--db", fixture.database,
        ])
        #expect(check.status == 0, "\(check.output)")
        let trusted = try await fixture.hybrid(recommend + ["--judge-check", checkFile])
        #expect(trusted.status == 0 && trusted.output.contains("judge grader: reliable against people"), "\(trusted.output)")

        // Every report format says how far the judge can be believed, or that nobody measured it.
        let reports = fixture.directory.appendingPathComponent("reports").path
        let plain = try await fixture.hybrid(["report", "r1", "--out", reports + "/plain", "--db", fixture.database])
        #expect(plain.status == 0, "\(plain.output)")
        let plainMarkdown = try String(contentsOfFile: reports + "/plain/report.md", encoding: .utf8)
        #expect(plainMarkdown.contains("**Judge**: the judge's agreement with people is unmeasured"), "\(plainMarkdown.prefix(800))")
        #expect(try String(contentsOfFile: reports + "/plain/junit.xml", encoding: .utf8).contains("name=\"reliability\"><skipped message="))
        let measured = try await fixture.hybrid(["report", "r1", "--judge-check", checkFile, "--out", reports + "/measured", "--db", fixture.database])
        #expect(measured.status == 0, "\(measured.output)")
        #expect(try String(contentsOfFile: reports + "/measured/report.md", encoding: .utf8).contains("**Judge**: judge grader: weighted kappa 1.00"))
        #expect(try String(contentsOfFile: reports + "/measured/report.html", encoding: .utf8).contains("data-judge-reliable=\"true\""))
        let json = try String(contentsOfFile: reports + "/measured/report.json", encoding: .utf8)
        #expect(json.contains("\"judgeReliability\"") && json.contains("\"reliable\" : true"), "\(json.prefix(600))")

        try #"{"judge": "grader", "labels": "l", "answers": 12, "scored": 12, "kappa": 0.2, "kappaLower": -0.1, "kappaUpper": 0.5, "minimumKappa": 0.6, "reliable": false}"#
            .write(toFile: checkFile, atomically: true, encoding: .utf8)
        let weak = try await fixture.hybrid(recommend + ["--judge-check", checkFile])
        #expect(weak.status == 1 && weak.output.contains("judge grader is not reliable enough for a quality floor: kappa's lower bound -0.10"), "\(weak.output)")

        // Measured when the run was made (--judge-labels): reports and recommend read the figures from the run.
        let labelled = try await fixture.hybrid([
            "eval", "--feature", "summarize", "--dataset", dataset, "--run-id", "r2", "--models", "fake-a", "--judge", "grader",
            "--judge-labels", labels.path, "--config", config, "--db", fixture.database,
        ])
        #expect(labelled.status == 0 && labelled.output.contains("quadratic-weighted kappa: 1.00"), "\(labelled.output)")
        let fromRun = try await fixture.hybrid(["recommend", "r2", "--policy", policy.path, "--config", config, "--db", fixture.database])
        #expect(fromRun.status == 0 && fromRun.output.contains("judge grader: reliable against people (the figures measured with --judge-labels"), "\(fromRun.output)")
        #expect(try await fixture.hybrid(["report", "r2", "--out", reports + "/r2", "--db", fixture.database]).status == 0)
        #expect(try String(contentsOfFile: reports + "/r2/report.md", encoding: .utf8).contains("**Judge**: judge grader: weighted kappa 1.00"))

        // The threshold is the policy's: a policy asking more than kappa's lower bound refuses the same judge.
        let fraction = try #require(fromRun.output.firstMatch(of: /kappa's lower bound (\d\.\d\d)/)?.output.1)
        let demanding = fixture.directory.appendingPathComponent("demanding.json")
        try #"{"judgeMinimumKappa": 1.01, "defaults": {"maxQualityDrop": {"scorer": "judge:accuracy", "value": 0.1}}}"#.write(to: demanding, atomically: true, encoding: .utf8)
        let refused = try await fixture.hybrid(["recommend", "r2", "--policy", demanding.path, "--config", config, "--db", fixture.database])
        #expect(refused.status == 1 && refused.output.contains("kappa's lower bound \(fraction) on 12 of 12 scored answers"), "\(refused.output)")
        #expect(refused.output.contains("the policy's judgeMinimumKappa 1.01"), "\(refused.output)")
    }
}
