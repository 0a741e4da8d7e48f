import Foundation
import HybridCore
import HybridRunner
import HybridStore

/// A directory holding a dataset file and a store with two runs over it (baseline and candidate), shaped like
/// what `make run` leaves: two measured arms with a word-limit check, and a cloud arm never sent (no API key).
struct ViewFixture {
    static let feature = "summarize"
    static let datasetName = "cases.jsonl"
    static let terse = "terse@local-smollm2"
    static let bullets = "bullets@local-smollm2"
    static let cloud = "terse@gpt-4o-mini"

    /// A case of the dataset with each run's outputs per measured arm.
    struct Case {
        var id: String
        var input: String
        var reference: String
        var outputs: [String: [String: String]]  // run id → arm → output
    }

    static let baselineRun = "baseline-run"
    static let candidateRun = "candidate-run"
    static let wordLimit = 12

    static let cases: [Case] = [
        Case(
            id: "c1", input: "The council of Marlow will close the old river bridge to cars from March.",
            reference: "Marlow closes the river bridge to cars from March.",
            outputs: [
                baselineRun: [terse: "Marlow closes its old bridge to cars in March.", bullets: "- bridge closes\n- from March"],
                candidateRun: [terse: "Marlow closes the old river bridge to cars from March.", bullets: "- bridge closes to cars\n- March"],
            ]),
        Case(
            id: "c2", input: "A bakery in Lyon sells bread made with insect flour, which has more protein.",
            reference: "A Lyon bakery sells protein-rich bread made from insect flour.",
            outputs: [
                baselineRun: [terse: "A Lyon bakery sells insect flour bread.", bullets: "- Lyon bakery\n- insect bread"],
                candidateRun: [
                    terse: "A bakery in the French city of Lyon now sells a bread that is made with flour ground from insects.",
                    bullets: "- Lyon <b>bold</b> bakery\n- insect bread",
                ],
            ]),
        Case(
            id: "c3", input: "Heavy snow closed schools across the region on Monday; buses will run again on Wednesday.",
            reference: "Snow closed the region's schools Monday; buses return Wednesday.",
            outputs: [
                baselineRun: [
                    terse: "On Monday heavy snow closed every school across the whole region and buses stop until Wednesday.",
                    bullets: "- snow\n- schools closed",
                ],
                candidateRun: [terse: "Snow closed schools Monday; buses run Wednesday.", bullets: "- snow\n- schools shut"],
            ]),
        Case(
            id: "c4", input: "The museum extends its opening hours on Fridays until 10 pm from next month.",
            reference: "From next month the museum stays open until 10 pm on Fridays.",
            outputs: [
                baselineRun: [terse: "Museum open until 10 pm on Fridays.", bullets: "- museum\n- Fridays 10 pm"],
                candidateRun: [terse: "The museum opens until 10 pm on Fridays.", bullets: "- museum\n- late Fridays"],
            ]),
    ]

    let directory: URL
    var databasePath: String { directory.appendingPathComponent("hybrid.sqlite").path }

    /// Writes the dataset and the store under a new temporary directory, runs `body`, then removes it.
    static func with<T>(_ body: (ViewFixture) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-view-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixture = ViewFixture(directory: directory)
        try await fixture.write()
        return try await body(fixture)
    }

    private func write() async throws {
        let lines = try Self.cases.map { item in
            let object: [String: Any] = ["id": item.id, "input": ["input": item.input], "reference": ["expectedText": item.reference]]
            return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
        }
        let data = Data((lines.joined(separator: "\n") + "\n").utf8)
        try data.write(to: directory.appendingPathComponent(Self.datasetName))
        let store = try SQLiteResultStore(path: databasePath)
        for (offset, runID) in [Self.baselineRun, Self.candidateRun].enumerated() {
            try await store.createRun(RunRecord(
                id: runID, features: [Self.feature], datasetPath: Self.datasetName, datasetHash: ContentHash.hex(of: data),
                configVersion: 3 + offset, startedAt: Date(timeIntervalSince1970: 1_790_000_000 + Double(offset) * 3_600),
                finishedAt: Date(timeIntervalSince1970: 1_790_000_060 + Double(offset) * 3_600), status: .completed,
                plannedCount: Self.cases.count * 3, seed: 7))
            try await store.insertResults(Self.cases.flatMap { Self.results(of: $0, run: runID) })
        }
    }

    static func words(_ text: String) -> Int { text.split(whereSeparator: \.isWhitespace).count }

    /// The measured arms' results (checked against the word limit) and the cloud arm's `unavailable` error.
    static func results(of item: Case, run: String) -> [ResultRecord] {
        var results = [terse, bullets].map { arm -> ResultRecord in
            let output = item.outputs[run]![arm]!
            let count = words(output)
            return ResultRecord(
                key: ResultKey(runID: run, caseID: item.id, armID: arm, repeatIndex: 0), feature: feature,
                promptVariant: String(arm.prefix { $0 != "@" }), modelID: "local-smollm2", tier: .onDevice,
                renderedPromptHash: "h", renderedPrompt: "Summarise: \(item.input)", rawOutput: output,
                usage: TokenUsage(promptTokens: 40, completionTokens: count + 2),
                timings: ResultTimings(ttftMs: 120, totalMs: 400 + Double(count) * 10),
                constraints: [
                    ConstraintOutcome(
                        name: "max_words", passed: count <= wordLimit, observed: .int(count),
                        message: count <= wordLimit ? nil : "\(count) words, limit \(wordLimit)")
                ],
                scores: [QualityScore(scorer: "rouge_l", value: 0.5)])
        }
        results.append(ResultRecord(
            key: ResultKey(runID: run, caseID: item.id, armID: cloud, repeatIndex: 0), feature: feature, promptVariant: "terse",
            modelID: "gpt-4o-mini", tier: .thirdParty, renderedPromptHash: "h", rawOutput: nil, usage: nil,
            timings: ResultTimings(totalMs: 0),
            error: ResultError(kind: "unavailable", message: "gpt-4o-mini: unavailable: OPENAI_API_KEY not set")))
        return results
    }

    /// Whether the arm's output for the case passes the word limit in `run`.
    static func passes(_ item: Case, _ arm: String, in run: String) -> Bool {
        words(item.outputs[run]![arm]!) <= wordLimit
    }
}
