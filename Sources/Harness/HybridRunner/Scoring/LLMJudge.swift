import Foundation
public import HybridCore
public import HybridStore

/// Scores an output with a language model following a rubric: any configured model can judge.
///
/// Without dimensions the judge answers one integer from 1 to 5, normalised to 0...1. With ``dimensions`` it scores
/// each named dimension on its own scale with a short rationale (stored as `judge:NAME`), and the `judge` score is
/// their mean. With ``repeats`` above 1 it is asked that many times with sampling on, and each score is the mean of
/// its repeats, so the judge's own noise is part of every case's figure and of the paired intervals built on them.
/// Its tokens and cost are kept apart from the arm's, so judging never inflates what an arm appears to cost.
public struct LLMJudge: Sendable {
    /// The model that grades outputs; it is billed apart from the arms.
    public var model: any LanguageModel
    /// Grading instructions given to the judge.
    public var rubric: String
    /// Named dimensions to score one by one; empty for a single 1–5 score.
    public var dimensions: [RubricDimension] = []
    /// How many times each output is judged (1: greedy; more: sampled with seeds 1…K, then averaged).
    public var repeats = 1
    /// Price of the judge model per million tokens (input, output), to report the judge's own cost.
    public var inputPricePerMillion: Double
    /// Dollars per million output tokens of the judge model.
    public var outputPricePerMillion: Double
    /// Where judgements are cached by (judge, everything it is shown), so they are never paid for twice.
    public var cache: (any ResultStore)?
    /// A cap on the judge's spending; a call that does not fit is not made and its output is left unjudged.
    public var budget: JudgeBudget?

    /// Creates a judge; prices default to 0, so the judge's cost reads as zero unless given.
    public init(model: any LanguageModel, rubric: String = LLMJudge.defaultRubric, inputPricePerMillion: Double = 0, outputPricePerMillion: Double = 0) {
        self.model = model
        self.rubric = rubric
        self.inputPricePerMillion = inputPricePerMillion
        self.outputPricePerMillion = outputPricePerMillion
    }

    /// A general rubric for when the feature has none.
    public static let defaultRubric = """
        Rate how well the answer does the task: 5 = correct, complete and concise; 3 = partly correct or too long; \
        1 = wrong, off-topic or empty.
        """

    /// One verdict: the normalised scores (nil where the judge's answers held none) and what judging cost.
    public struct Verdict: Sendable, Hashable {
        /// The overall score in 0...1 (the dimensions' mean when there are dimensions), averaged over the repeats
        /// that gave one; nil when none did.
        public var score: Double?
        /// Per dimension name, its score averaged over repeats (nil: never read) and the first rationale given.
        public var dimensions: [String: DimensionScore] = [:]
        /// Each repeat's overall score, to show the judge's own spread.
        public var repeatScores: [Double?]
        /// The judge's first answer verbatim, to audit its scores.
        public var rawAnswer: String
        /// Tokens the judge calls used (not counted in the arm's usage), cached answers included.
        public var usage: TokenUsage
        /// What the calls cost now, in US dollars; cached answers cost nothing.
        public var costUSD: Double
        /// Id of the model that judged.
        public var judgeModel: String

    }

    /// A dimension's score (nil when no repeat gave one) and the judge's reason for it.
    public struct DimensionScore: Sendable, Hashable {
        public var score: Double?
        public var rationale: String?
    }

    /// Asks the judge about `output`, produced for `prompt`, with an optional reference answer, `repeats` times.
    public func judge(prompt: String, output: String, reference: String?) async throws(GenerationError) -> Verdict {
        let caller = JudgeCaller(
            model: model, inputPricePerMillion: inputPricePerMillion, outputPricePerMillion: outputPricePerMillion,
            cache: cache, budget: budget)
        let message = self.message(prompt: prompt, output: output, reference: reference)
        var answers: [String] = []
        var usage = TokenUsage(promptTokens: 0, completionTokens: 0)
        var cost = 0.0
        for index in 0..<max(1, repeats) {
            let answer = try await caller.call(request(message, repeatIndex: index))
            answers.append(answer.text)
            usage = TokenUsage(
                promptTokens: usage.promptTokens + answer.usage.promptTokens,
                completionTokens: usage.completionTokens + answer.usage.completionTokens,
                isEstimated: usage.isEstimated || answer.usage.isEstimated)
            cost += answer.costUSD
        }
        return verdict(answers, usage: usage, cost: cost)
    }

    private func message(prompt: String, output: String, reference: String?) -> String {
        var message = "Rubric: \(rubric)\n\n"
        if !dimensions.isEmpty {
            message += "Score each dimension:\n"
            for dimension in dimensions {
                message += "- \(dimension.name) (1 to \(dimension.scale)): \(dimension.description)\n"
            }
            message += "\n"
        }
        message += "Task given to the assistant:\n\(prompt)\n\nAssistant's answer:\n\(output)\n"
        if let reference { message += "\nA good reference answer:\n\(reference)\n" }
        if dimensions.isEmpty {
            message += "\nReply with a single digit from 1 to 5."
        } else {
            message += "\nReply with one line per dimension, exactly `name: score - one short reason`, and nothing else."
        }
        return message
    }

    private func request(_ message: String, repeatIndex: Int) -> GenerationRequest {
        let instructions = dimensions.isEmpty
            ? "You are a strict grader. You reply with one digit only."
            : "You are a strict grader. You score each dimension and give one short reason for each score."
        let sampling: GenerationOptions = repeats > 1
            ? GenerationOptions(temperature: 0.7, maxOutputTokens: outputLimit, seed: repeatIndex + 1)
            : GenerationOptions(maxOutputTokens: outputLimit, sampling: .greedy, seed: 1)
        return GenerationRequest(instructions: instructions, messages: [.user(message)], options: sampling)
    }

    private var outputLimit: Int { dimensions.isEmpty ? 4 : 48 * dimensions.count }

    /// The scores read from each repeat's answer, averaged over the repeats that gave them.
    private func verdict(_ answers: [String], usage: TokenUsage, cost: Double) -> Verdict {
        var perDimension: [String: (scores: [Double], rationale: String?)] = [:]
        var overall: [Double?] = []
        for answer in answers {
            if dimensions.isEmpty {
                let digit = answer.first { ("1"..."5").contains(String($0)) }
                overall.append(digit.flatMap { Int(String($0)) }.map { Double($0 - 1) / 4 })
                continue
            }
            let read = dimensions.map { ($0.name, $0.read(answer)) }
            for (name, value) in read {
                guard let value else { continue }
                perDimension[name, default: ([], nil)].scores.append(value.score)
                if perDimension[name]?.rationale == nil, !value.rationale.isEmpty { perDimension[name]?.rationale = value.rationale }
            }
            let scores = read.compactMap(\.1?.score)
            overall.append(scores.count == dimensions.count ? scores.reduce(0, +) / Double(scores.count) : nil)
        }
        let answered = overall.compactMap { $0 }
        var verdict = Verdict(
            score: answered.isEmpty ? nil : answered.reduce(0, +) / Double(answered.count), repeatScores: overall,
            rawAnswer: answers.first ?? "", usage: usage, costUSD: cost, judgeModel: model.id)
        for dimension in dimensions {
            let entry = perDimension[dimension.name]
            let mean = entry.flatMap { $0.scores.isEmpty ? nil : $0.scores.reduce(0, +) / Double($0.scores.count) }
            verdict.dimensions[dimension.name] = DimensionScore(score: mean, rationale: entry?.rationale)
        }
        return verdict
    }

    /// The scores as stored: `judge` (with the judge's own tokens and cost in its detail, never in the arm's cost)
    /// and one `judge:NAME` per answered dimension with its rationale. Empty when the judge fails or answers
    /// nothing readable, so a failed judgement never averages in as 0.
    public func qualityScores(prompt: String, output: String, reference: String?) async -> [QualityScore] {
        guard let verdict = try? await judge(prompt: prompt, output: output, reference: reference) else { return [] }
        var scores: [QualityScore] = []
        if let score = verdict.score {
            var detail: [String: JSONValue] = [
                "judge_model": .string(verdict.judgeModel), "answer": .string(verdict.rawAnswer),
                "prompt_tokens": .int(verdict.usage.promptTokens), "completion_tokens": .int(verdict.usage.completionTokens),
                "cost_usd": .double(verdict.costUSD),
            ]
            if repeats > 1 { detail["repeats"] = .array(verdict.repeatScores.map { $0.map(JSONValue.double) ?? .null }) }
            scores.append(QualityScore(scorer: Self.scorerName, value: score, detail: Self.text(.object(detail))))
        }
        for dimension in dimensions {
            guard let entry = verdict.dimensions[dimension.name], let score = entry.score else { continue }
            let detail: JSONValue = ["judge_model": .string(verdict.judgeModel), "rationale": .string(entry.rationale ?? "")]
            scores.append(QualityScore(scorer: dimension.scorerName, value: score, detail: Self.text(detail)))
        }
        return scores
    }

    private static func text(_ value: JSONValue) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The scorer name judge scores are stored under.
    public static let scorerName = "judge"

    /// True for the scores a judge writes (`judge` and `judge:NAME`): what `rescore` keeps when it has no judge.
    public static func isJudgeScore(_ scorer: String) -> Bool {
        scorer == scorerName || scorer.hasPrefix(scorerName + ":")
    }
}
