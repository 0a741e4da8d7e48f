import Foundation
import HybridConfig
import HybridTestSupport
import Testing

/// `hybrid simulate RUN --check-router` on a config with `routing.hedge`: the hedge is replayed, not left out.
@Suite("simulate --check-router replays a hedge")
struct CheckRouterHedgeCLITests {
    @Test func aHedgedConfigIsReplayedAndAgrees() async throws {
        // Odd cases: the first call of a prompt answers in 400 ms, the second in 150 ms, so whichever arm was slow
        // in the eval, the replayed request is hedged at 100 ms and two calls race.
        let fake = try FakeChatCompletionsServer { prompt, attempt in
            let odd = (CLIFixture.caseNumber(in: prompt) ?? 0) % 2 == 1
            return .reply("A short summary of the feeds.", delay: odd ? .milliseconds(attempt == 0 ? 400 : 150) : .zero)
        }
        defer { fake.stop() }
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let config = try fixture.writeConfig("hedged.json", models: ["fake-a", "fake-b"], baseURL: fake.baseURL) {
            $0.routing = RoutingConfig(hedge: HedgeConfig(afterMs: 100))
        }
        let dataset = try fixture.writeDataset("cases.jsonl", count: 6)
        let eval = try await fixture.hybrid([
            "eval", "--feature", "summarize", "--dataset", dataset, "--run-id", "h1", "--config", config, "--db", fixture.database,
        ])
        #expect(eval.status == 0, "\(eval.output)")

        let check = try await fixture.hybrid(["simulate", "h1", "--check-router", "--db", fixture.database])
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.contains("hedge after 100 ms"), "\(check.output)")
        // The eval streamed (its results carry a time to first token): replayed as generate and as stream.
        #expect(check.output.contains("agreement: 12 of 12 cases"), "\(check.output)")
        #expect(check.output.contains("k1 (stream): agree"), "\(check.output)")
        #expect(!check.output.contains("left out"), "\(check.output)")
    }
}
