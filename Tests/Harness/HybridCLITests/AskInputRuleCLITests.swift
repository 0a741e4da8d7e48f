import Foundation
import HybridConfig
import HybridTestSupport
import Testing

/// `hybrid ask --feature` names the input rule that routed the prompt, and its `--label`s reach a rule's
/// `label.NAME` test as an app's call labels would.
@Suite struct AskInputRuleCLITests {
    /// Inputs of 400 characters or more, or calls labelled `kind=long-form`, go to `fake-b`; the rest to `fake-a`.
    static let rules = [
        InputRule(name: "long-inputs", when: [InputTest(.inputCharacters, atLeast: 400)], priority: ["fake-b"]),
        InputRule(name: "long-form", when: [InputTest(label: "kind", LabelTest(equals: "long-form"))], priority: ["fake-b"]),
    ]

    @Test func printsTheRuleThatAppliedAndPassesLabelsToTheCall() async throws {
        let fake = try FakeChatCompletionsServer { _, _ in .reply("A short summary.") }
        defer { fake.stop() }
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let config = try fixture.writeConfig("rules.json", models: ["fake-a", "fake-b"], baseURL: fake.baseURL) {
            $0.inputRules = Self.rules
        }
        func ask(_ prompt: String, _ extra: [String] = []) async throws -> String {
            let outcome = try await fixture.hybrid(["ask", "--feature", "summarize", "--config", config] + extra + [prompt])
            #expect(outcome.status == 0, "\(outcome.output)")
            return outcome.output
        }
        let long = try await ask(String(repeating: "The feeds were fine today. ", count: 20))
        #expect(long.contains("rule:        long-inputs") && long.contains("served by:   fake-b"), "\(long)")
        let short = try await ask("The feeds were fine.")
        #expect(!short.contains("rule:") && short.contains("served by:   fake-a"), "\(short)")
        let labelled = try await ask("The feeds were fine.", ["--label", "kind=long-form"])
        #expect(labelled.contains("rule:        long-form") && labelled.contains("served by:   fake-b"), "\(labelled)")
    }
}
