import Foundation
import HybridCore
import HybridRunner
import HybridStore
import HybridTestSupport
import Testing

/// The rubric judge's named dimensions with rationales, its repeats (judge noise averaged per case), its response
/// cache (a judgement is never paid twice) and its budget (concurrent calls never overrun it) (#51).
@Suite("Rubric judge: dimensions, repeats, cache, budget")
struct RubricJudgeTests {
    static let dimensions = [
        RubricDimension(name: "accuracy", description: "keeps the facts"),
        RubricDimension(name: "brevity", description: "says it in few words", scale: 3),
    ]

    @Test("each dimension's score and rationale are read from the judge's lines, whatever their decoration")
    func dimensionsAndRationales() async throws {
        let model = ScriptedLanguageModel(id: "grader", whenExhausted: .reply("**Accuracy**: 4/5 - keeps the point\nbrevity = 1 — far too long\n"))
        var judge = LLMJudge(model: model, rubric: "Judge the summary.")
        judge.dimensions = Self.dimensions
        let scores = await judge.qualityScores(prompt: "Summarize.", output: "A long text.", reference: nil)
        let byName = Dictionary(uniqueKeysWithValues: scores.map { ($0.scorer, $0) })
        #expect(byName["judge:accuracy"]?.value == 0.75)
        #expect(byName["judge:brevity"]?.value == 0)
        #expect(byName["judge"]?.value == 0.375, "the overall score is the dimensions' mean")
        #expect(byName["judge:accuracy"]?.detail?.contains("keeps the point") == true)
        #expect(byName["judge:brevity"]?.detail?.contains("far too long") == true)
        let sent = try #require(model.requests.first?.messages.last?.content)
        #expect(sent.contains("- brevity (1 to 3): says it in few words"), "each dimension is shown with its scale")
    }

    @Test("a dimension the judge left out or scored off its scale is not invented; the overall score needs them all")
    func missingDimension() async throws {
        let model = ScriptedLanguageModel(id: "grader", whenExhausted: .reply("accuracy: 5 - exact\nbrevity: 7 - ?"))
        var judge = LLMJudge(model: model)
        judge.dimensions = Self.dimensions
        let scores = await judge.qualityScores(prompt: "p", output: "o", reference: nil)
        #expect(scores.map(\.scorer) == ["judge:accuracy"])
    }

    @Test("repeats sample the judge with a seed each and average; the detail keeps each repeat's score")
    func repeatsAverage() async throws {
        let model = ScriptedLanguageModel(id: "grader", script: [.reply("3"), .reply("5"), .reply("none")])
        var judge = LLMJudge(model: model)
        judge.repeats = 3
        let verdict = try await judge.judge(prompt: "p", output: "o", reference: nil)
        #expect(verdict.repeatScores == [0.5, 1, nil])
        #expect(verdict.score == 0.75, "the repeat without a score is left out, not counted as 0")
        #expect(model.requests.map(\.options.seed) == [1, 2, 3])
        #expect(model.requests.allSatisfy { $0.options.temperature == 0.7 && $0.options.sampling != .greedy })
    }

    @Test("a judgement asked again is answered from the store's cache and costs nothing; another output asks again")
    func cachedJudgements() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteResultStore(path: directory.url.appendingPathComponent("runs.sqlite").path)
        let model = ScriptedLanguageModel(id: "grader", whenExhausted: .reply("4", usage: TokenUsage(promptTokens: 100, completionTokens: 1)))
        var judge = LLMJudge(model: model, inputPricePerMillion: 10, outputPricePerMillion: 30)
        judge.cache = store
        let first = try await judge.judge(prompt: "p", output: "o", reference: nil)
        let again = try await judge.judge(prompt: "p", output: "o", reference: nil)
        #expect(model.callCount == 1)
        #expect(first.costUSD > 0 && again.costUSD == 0 && again.score == first.score)
        _ = try await judge.judge(prompt: "p", output: "another output", reference: nil)
        #expect(model.callCount == 2)
    }

    @Test("concurrent calls never spend beyond the budget; the calls that do not fit are not made")
    func budgetHolds() async throws {
        let model = ScriptedLanguageModel(id: "grader", whenExhausted: .reply("4", usage: TokenUsage(promptTokens: 400, completionTokens: 1)))
        var judge = LLMJudge(model: model, inputPricePerMillion: 1_000, outputPricePerMillion: 1_000)
        let budget = JudgeBudget(limitUSD: 3)
        judge.budget = budget
        let capped = judge
        let scores = await withTaskGroup(of: [QualityScore].self) { group in
            for index in 0..<20 {
                group.addTask { await capped.qualityScores(prompt: "Summarize case \(index).", output: String(repeating: "x", count: 300), reference: nil) }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        let spent = await budget.spentUSD
        let refused = await budget.refusedCalls
        #expect(spent <= 3 && spent > 0)
        #expect(scores.count == model.callCount && refused == 20 - model.callCount && refused > 0)
    }
}
