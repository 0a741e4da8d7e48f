import Foundation
import HybridTestSupport
import Testing

/// A run remembers the config it ran under: `rescore`, `simulate --check-router` and `recommend` on a run made with
/// `eval --config X` read X back from the store; `--config` then means "judge it under this other config".
@Suite("a run remembers its config")
struct RunConfigMemoryTests {
    @Test func laterCommandsDefaultToTheRunsOwnConfig() async throws {
        let fake = try FakeChatCompletionsServer { _, _ in .reply("A short summary of the feeds.") }
        defer { fake.stop() }
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let config = try fixture.writeConfig("own.json", models: ["fake-a", "fake-b"], baseURL: fake.baseURL)
        let dataset = try fixture.writeDataset("cases.jsonl", count: 6)
        let eval = try await fixture.hybrid([
            "eval", "--feature", "summarize", "--dataset", dataset, "--run-id", "r1", "--config", config, "--db", fixture.database,
        ])
        #expect(eval.status == 0, "\(eval.output)")
        // The config file may be gone or changed by now: the run kept its own copy.
        try FileManager.default.removeItem(atPath: config)

        let check = try await fixture.hybrid(["simulate", "r1", "--check-router", "--db", fixture.database])
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.contains("config: the config run r1 ran with (v"), "\(check.output)")

        let recommend = try await fixture.hybrid(["recommend", "r1", "--db", fixture.database])
        #expect(recommend.status == 0, "\(recommend.output)")
        #expect(!recommend.output.contains("is not in the config"), "\(recommend.output)")

        let rescore = try await fixture.hybrid(["rescore", "r1", "--run-id", "r1-again", "--db", fixture.database])
        #expect(rescore.status == 0, "\(rescore.output)")
        #expect(rescore.output.contains("config: the config run r1 ran with"), "\(rescore.output)")

        // --config now says whose config judges the run.
        let other = try fixture.writeConfig("other.json", models: ["fake-a", "fake-b"], baseURL: fake.baseURL) {
            $0.constraints = .init(maxWords: 3)
        }
        let judged = try await fixture.hybrid(["simulate", "r1", "--check-router", "--config", other, "--db", fixture.database])
        #expect(judged.output.contains("judging run r1 under it, not under the config it ran with"), "\(judged.output)")
    }
}
