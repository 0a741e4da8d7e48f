import Foundation
import HybridConfig
import HybridConfigTools
import HybridCore
import HybridTestSupport
import HybridProjectTestSupport

/// A scratch directory with a config and a dataset for running `hybrid` against loopback servers.
struct CLIFixture {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    var database: String { path("runs.sqlite") }

    /// `hybrid ARGUMENTS` run in this directory (killed after `killAfter`, or as soon as `killWhen` holds).
    func hybrid(
        _ arguments: [String], killAfter: Duration? = nil, killWhen: (@Sendable () -> Bool)? = nil
    ) async throws -> HybridCLI.Outcome {
        try await HybridCLI.run(arguments, in: directory, killAfter: killAfter, killWhen: killWhen)
    }

    /// The bundled `summarize` feature over OpenAI-compatible models at `baseURL` (private cloud, no key needed),
    /// written to `name`; `edit` changes the feature before writing.
    @discardableResult
    func writeConfig(
        _ name: String, models: [String], baseURL: String, edit: (inout FeatureConfig) -> Void = { _ in }
    ) throws -> String {
        var document = try HybridConfigDocument.bundledDefaults().document
        document.models = Dictionary(uniqueKeysWithValues: models.map { id in
            (id, ModelConfig(
                kind: .openAICompatible, baseURL: baseURL, model: "fake", tier: .privateCloud,
                pricing: ModelPricing(inputPerMillion: 1, outputPerMillion: 2), contextWindow: 8192,
                capabilities: .init(structuredOutput: true, streaming: true)))
        })
        var feature = document.features["summarize"]!
        feature.priority = models
        edit(&feature)
        document.features = ["summarize": feature]
        document.rollouts = [:]
        try document.encodedJSON().write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    /// A fixture holding `c.json` (the summarize feature over `models` at `baseURL`) and `cases.jsonl` (`cases`
    /// cases), the setting most CLI tests start from; `evalArguments` runs `hybrid eval` on it.
    static func summarizing(models: [String], baseURL: String, cases: Int) throws -> (fixture: CLIFixture, evalArguments: [String]) {
        let fixture = try CLIFixture()
        let config = try fixture.writeConfig("c.json", models: models, baseURL: baseURL)
        let dataset = try fixture.writeDataset("cases.jsonl", count: cases)
        return (fixture, ["--feature", "summarize", "--dataset", dataset, "--config", config, "--db", fixture.database])
    }

    /// `count` cases `k1…kN` whose input says "Case N."
    @discardableResult
    func writeDataset(_ name: String, count: Int, extra: String = "") throws -> String {
        let lines = (1...count).map { #"{"id": "k\#($0)", "input": {"input": "Case \#($0). The feeds were fine today.\#(extra)"}}"# }
        try lines.joined(separator: "\n").write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }

    /// The case number in a prompt rendered from ``writeDataset(_:count:extra:)``.
    static func caseNumber(in prompt: String) -> Int? {
        guard let range = prompt.range(of: "Case ") else { return nil }
        return Int(prompt[range.upperBound...].prefix { $0.isNumber })
    }
}

extension FakeChatCompletionsServer {
    /// Arms that all say "The feeds were fine." and a pairwise judge that answers "A" whatever it is shown: a judge
    /// biased to the first position, whose every case must flip with the order.
    static func alwaysFirstJudge() throws -> FakeChatCompletionsServer {
        try FakeChatCompletionsServer { prompt, _ in
            prompt.contains("Reply with A, B or TIE only") ? .reply("A") : .reply("The feeds were fine.")
        }
    }
}
