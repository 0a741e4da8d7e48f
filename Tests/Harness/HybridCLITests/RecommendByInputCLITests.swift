import Foundation
import HybridConfig
import HybridCore
import HybridTestSupport
import Testing

/// `hybrid recommend RUN --by-input` through the real CLI: a device that fails long inputs and a priced cloud that
/// answers everything, the current route all-cloud; the rule it learns sends long inputs to the cloud, is written
/// as the next config version, validates, and the router check replays it.
@Suite("recommend --by-input through the CLI")
struct RecommendByInputCLITests {
    static let long = String(repeating: "The council met again to discuss the tram line and its budget. ", count: 30)

    @Test func learnsTheLengthRuleAndWritesIt() async throws {
        let wordy = Array(repeating: "word", count: 120).joined(separator: " ")
        // The device answers long inputs at length (over the feature's 80 words); the cloud always briefly.
        let device = try FakeChatCompletionsServer { prompt, _ in .reply(prompt.count > 1_000 ? wordy : "A short summary.") }
        defer { device.stop() }
        let cloud = try FakeChatCompletionsServer { _, _ in .reply("A short summary.") }
        defer { cloud.stop() }
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let config = try Self.writeConfig(fixture, device: device.baseURL, cloud: cloud.baseURL)
        let lines = (1...60).map { #"{"id": "k\#($0)", "input": {"input": "Case \#($0). \#($0 % 3 == 0 ? Self.long : "A short note on the tram.")"}}"# }
        let dataset = fixture.path("cases.jsonl")
        try lines.joined(separator: "\n").write(toFile: dataset, atomically: true, encoding: .utf8)
        let eval = try await fixture.hybrid([
            "eval", "--feature", "summarize", "--dataset", dataset, "--run-id", "r1", "--config", config, "--db", fixture.database,
        ])
        #expect(eval.status == 0, "\(eval.output)")

        let out = fixture.path("proposed.json")
        let recommend = try await fixture.hybrid(["recommend", "r1", "--by-input", "--db", fixture.database, "--out", out])
        #expect(recommend.status == 0, "\(recommend.output)")
        let proposed = try ConfigValidator.load(Data(contentsOf: URL(fileURLWithPath: out))).document
        let rule = try #require(proposed.features["summarize"]?.inputRules?.first, "\(recommend.output)")
        #expect(rule.priority.first == "cloud", "\(rule.plainWords)")
        #expect(proposed.features["summarize"]?.routing?.onError?.isEmpty == false, "the routing it simulated is written out")
        #expect(rule.plainWords.hasPrefix("inputCharacters ≥") || rule.plainWords.hasPrefix("inputTokens ≥"), "\(rule.plainWords)")
        #expect(recommend.output.contains(rule.plainWords.components(separatedBy: " →").first ?? "?"), "\(recommend.output)")
        #expect(recommend.output.contains("all-device") && recommend.output.contains("all-cloud"), "\(recommend.output)")

        let check = try await fixture.hybrid(["simulate", "r1", "--check-router", "--config", out, "--db", fixture.database])
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.contains("k3: agree, rule \(rule.name)"), "\(check.output)")
    }

    @Test func oneTierAnsweringProposesNothingAndSaysWhy() async throws {
        let server = try FakeChatCompletionsServer { _, _ in .reply("A short summary.") }
        defer { server.stop() }
        let (fixture, evalArguments) = try CLIFixture.summarizing(models: ["only"], baseURL: server.baseURL, cases: 12)
        defer { fixture.remove() }
        #expect(try await fixture.hybrid(["eval", "--run-id", "r1"] + evalArguments).status == 0)
        let recommend = try await fixture.hybrid(["recommend", "r1", "--by-input", "--db", fixture.database])
        #expect(recommend.output.lowercased().contains("tier"), "\(recommend.output)")
        #expect(!recommend.output.contains("inputRules"), "\(recommend.output)")
    }

    /// The summarize feature with the cloud first (the route in force) and the device second, each at its own server.
    static func writeConfig(_ fixture: CLIFixture, device: String, cloud: String) throws -> String {
        let path = try fixture.writeConfig("c.json", models: ["cloud", "phone"], baseURL: cloud)
        var document = try ConfigValidator.load(Data(contentsOf: URL(fileURLWithPath: path))).document
        document.models["phone"]?.baseURL = device
        document.models["phone"]?.tier = .onDevice
        document.models["phone"]?.pricing = .free
        document.models["cloud"]?.pricing = ModelPricing(inputPerMillion: 5, outputPerMillion: 15)
        try document.encodedJSON().write(to: URL(fileURLWithPath: path))
        return path
    }
}
