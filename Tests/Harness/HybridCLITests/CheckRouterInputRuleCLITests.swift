import Foundation
import HybridConfig
import HybridTestSupport
import Testing

/// `hybrid simulate RUN --check-router` on a config with input rules: the simulator routes each case by the rule
/// its rendered request meets, and agrees with the real router case by case, naming the rule.
@Suite("simulate --check-router replays input rules")
struct CheckRouterInputRuleCLITests {
    @Test func aLengthRuleSendsLongCasesToTheSecondModelInBoth() async throws {
        let fake = try FakeChatCompletionsServer { _, _ in .reply("A short summary of the feeds.") }
        defer { fake.stop() }
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let config = try fixture.writeConfig("rules.json", models: ["fake-a", "fake-b"], baseURL: fake.baseURL) {
            $0.inputRules = [InputRule(name: "long-inputs", when: [InputTest(.inputCharacters, atLeast: 400)], priority: ["fake-b"])]
        }
        // Even cases carry 500 more characters: long enough for the rule with the template around them.
        let long = String(repeating: "The feeds were fine. ", count: 25)
        let lines = (1...6).map { #"{"id": "k\#($0)", "input": {"input": "Case \#($0). \#($0 % 2 == 0 ? long : "Short.")"}}"# }
        let dataset = fixture.path("cases.jsonl")
        try lines.joined(separator: "\n").write(toFile: dataset, atomically: true, encoding: .utf8)
        let eval = try await fixture.hybrid([
            "eval", "--feature", "summarize", "--dataset", dataset, "--run-id", "r1", "--config", config, "--db", fixture.database,
        ])
        #expect(eval.status == 0, "\(eval.output)")

        let check = try await fixture.hybrid(["simulate", "r1", "--check-router", "--db", fixture.database])
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.contains("agreement: 6 of 6 cases") || check.output.contains("agreement: 12 of 12 cases"), "\(check.output)")
        #expect(check.output.contains("k2: agree, rule long-inputs, served by fake-b"), "\(check.output)")
        #expect(check.output.contains("k1: agree, served by fake-a"), "\(check.output)")
    }
}
