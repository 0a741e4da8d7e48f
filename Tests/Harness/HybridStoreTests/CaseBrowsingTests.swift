import Foundation
import HybridCore
import HybridStore
import HybridTestSupport
import Testing

/// The paged, filtered reads behind `hybrid view`'s grid, and the read-only opening it uses.
@Suite("case browsing queries")
struct CaseBrowsingTests {
    /// One result: `checks` maps constraint name → passed; `error` makes it an errored result.
    static func result(
        _ caseID: String, _ arm: String, repeatIndex: Int = 0, feature: String = "summarize", output: String? = nil,
        checks: [(String, Bool)] = [("max_words", true)], error: String? = nil
    ) -> ResultRecord {
        ResultRecord(
            key: ResultKey(runID: "run", caseID: caseID, armID: arm, repeatIndex: repeatIndex),
            feature: feature, promptVariant: "v", modelID: arm, tier: .thirdParty, renderedPromptHash: "h",
            renderedPrompt: "Summarise \(caseID)", rawOutput: error == nil ? (output ?? "output of \(caseID) by \(arm)") : nil,
            usage: TokenUsage(promptTokens: 10, completionTokens: 5), timings: ResultTimings(ttftMs: 20, totalMs: 80),
            costUSD: 0.001,
            constraints: error == nil ? checks.map { ConstraintOutcome(name: $0.0, passed: $0.1, message: $0.1 ? nil : "too long") } : [],
            scores: [QualityScore(scorer: "rouge_l", value: 0.5)],
            error: error.map { ResultError(kind: $0, message: "\($0) happened") })
    }

    /// c1: both pass · c2: a fails max_words, b passes (disagree) · c3: both fail, b on `json` only ·
    /// c4: a errors, b unavailable (not measured) · c5: a passes, b unavailable · c6 has no checks at all.
    static let results: [ResultRecord] = [
        result("c1", "a"), result("c1", "b"),
        result("c2", "a", checks: [("max_words", false)]), result("c2", "b", output: "needle in 50% of_cases"),
        result("c3", "a", checks: [("max_words", false)]), result("c3", "b", checks: [("max_words", true), ("json", false)]),
        result("c4", "a", error: "timeout"), result("c4", "b", error: "unavailable"),
        result("c5", "a"), result("c5", "b", error: "unavailable"),
        result("c6", "a", checks: []), result("c6", "b", checks: []),
        result("e1", "a", feature: "extract"),
    ]

    static func store(_ directory: TemporaryDirectory) async throws -> SQLiteResultStore {
        let store = try SQLiteResultStore(path: directory.databasePath)
        try await store.createRun(RunRecord(id: "run", features: ["summarize", "extract"], datasetPath: "d.jsonl", datasetHash: "x", plannedCount: 13, seed: 1))
        try await store.insertResults(results)
        return store
    }

    @Test("filters select cases in SQL: failing, arms disagree, a failing constraint, text; unavailable arms never count")
    func filters() async throws {
        try await withTemporaryDirectory { directory in
            let store = try await Self.store(directory)
            func ids(_ filter: CaseFilter) async throws -> [String] {
                try await store.caseIDs(run: "run", matching: filter, offset: 0, limit: 100)
            }
            #expect(try await ids(CaseFilter(feature: "summarize")) == ["c1", "c2", "c3", "c4", "c5", "c6"])
            #expect(try await ids(CaseFilter()) == ["c1", "c2", "c3", "c4", "c5", "c6", "e1"])
            #expect(try await ids(CaseFilter(feature: "summarize", failingOnly: true)) == ["c2", "c3", "c4"])
            #expect(try await ids(CaseFilter(feature: "summarize", armsDisagree: true)) == ["c2"])
            #expect(try await ids(CaseFilter(feature: "summarize", failingConstraint: "json")) == ["c3"])
            #expect(try await ids(CaseFilter(feature: "summarize", failingConstraint: "max_words")) == ["c2", "c3"])
            #expect(try await ids(CaseFilter(feature: "summarize", text: "NEEDLE")) == ["c2"])
            // LIKE wildcards in the search text match literally.
            #expect(try await ids(CaseFilter(feature: "summarize", text: "50% of_")) == ["c2"])
            #expect(try await ids(CaseFilter(feature: "summarize", text: "5_%")) == [])
            #expect(try await ids(CaseFilter(feature: "summarize", failingOnly: true, failingConstraint: "json")) == ["c3"])
            #expect(try await store.caseCount(run: "run", matching: CaseFilter(feature: "summarize", failingOnly: true)) == 3)
        }
    }

    @Test("pages by offset in case-id order and reads every arm and repeat of the page's cases, only of its feature")
    func paging() async throws {
        try await withTemporaryDirectory { directory in
            let store = try await Self.store(directory)
            try await store.insertResult(Self.result("c1", "a", repeatIndex: 1))
            let filter = CaseFilter(feature: "summarize")
            #expect(try await store.caseIDs(run: "run", matching: filter, offset: 2, limit: 2) == ["c3", "c4"])
            #expect(try await store.caseIDs(run: "run", matching: filter, offset: 6, limit: 2) == [])
            let cells = try await store.resultCells(run: "run", feature: "summarize", caseIDs: ["c1", "c4", "e1"])
            #expect(cells.map { "\($0.key.caseID)#\($0.key.repeatIndex)/\($0.key.armID)" } == ["c1#0/a", "c1#0/b", "c1#1/a", "c4#0/a", "c4#0/b"])
            let errored = try #require(cells.first { $0.key.caseID == "c4" && $0.key.armID == "a" })
            #expect(errored.passed == false)
            #expect(errored.error == ResultError(kind: "timeout", message: "timeout happened"))
            let notMeasured = try #require(cells.first { $0.key.caseID == "c4" && $0.key.armID == "b" })
            #expect(notMeasured.notMeasured && notMeasured.passed == nil)
            let passed = try #require(cells.first)
            #expect(passed.passed == true && passed.rawOutput == "output of c1 by a" && passed.usage?.completionTokens == 5)
            #expect(passed.constraints == [ConstraintOutcome(name: "max_words", passed: true)])
            #expect(passed.scores == [QualityScore(scorer: "rouge_l", value: 0.5)] && passed.ttftMs == 20 && passed.costUSD == 0.001)
            #expect(try await store.armCounts(run: "run") == [
                ArmResultCount(feature: "extract", armID: "a", count: 1), ArmResultCount(feature: "summarize", armID: "a", count: 7),
                ArmResultCount(feature: "summarize", armID: "b", count: 6, notMeasuredCount: 2),
            ])
            #expect(try await store.constraintNames(run: "run", feature: "summarize") == ["json", "max_words"])
        }
    }

    @Test("a read-only opening reads what a writer stored, cannot write, and never creates a missing file")
    func readOnly() async throws {
        try await withTemporaryDirectory { directory in
            _ = try await Self.store(directory)
            let reader = SQLiteResultStore(database: try HybridDatabase.openReadOnly(path: directory.databasePath))
            #expect(try await reader.resultCount(run: "run") == Self.results.count)
            await #expect(throws: StoreError.self) {
                try await reader.insertResult(Self.result("c9", "a"))
            }
            #expect(try await reader.resultCount(run: "run") == Self.results.count)
            let missing = directory.url.appendingPathComponent("none/hybrid.sqlite").path
            #expect {
                _ = try HybridDatabase.openReadOnly(path: missing)
            } throws: { error in
                "\(error)".contains("no such file")
            }
            #expect(!FileManager.default.fileExists(atPath: missing))
        }
    }
}
