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
}
