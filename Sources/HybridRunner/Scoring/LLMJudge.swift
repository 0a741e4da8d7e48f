import Foundation
public import HybridCore
public import HybridStore

/// Scores an output with a language model following a rubric: any configured model can judge.
///
/// The judge answers with one integer from 1 to 5, normalised to 0...1. Its own tokens and cost are returned
/// apart from the arm's, so judging never inflates what an arm appears to cost.
public struct LLMJudge: Sendable {
    /// The model that grades outputs; it is billed apart from the arms.
    public var model: any LanguageModel
    /// Grading instructions given to the judge; it must still answer with one integer from 1 to 5.
    public var rubric: String
    /// Price of the judge model per million tokens (input, output), to report the judge's own cost.
    public var inputPricePerMillion: Double
    /// Dollars per million output tokens of the judge model.
    public var outputPricePerMillion: Double

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

    /// One verdict: the normalised score (nil when the judge's answer held no 1–5 digit) and what judging cost.
    public struct Verdict: Sendable, Hashable {
        /// The score in 0...1; nil when the answer held no 1–5 digit.
        public var score: Double?
        /// The judge's answer verbatim, to audit its scores.
        public var rawAnswer: String
        /// Tokens the judge call used (not counted in the arm's usage).
        public var usage: TokenUsage
        /// Cost of the judge call in US dollars, from the judge's prices.
        public var costUSD: Double
        /// Id of the model that judged.
        public var judgeModel: String
    }

    /// Asks the judge about `output`, produced for `prompt`, with an optional reference answer.
    public func judge(prompt: String, output: String, reference: String?) async throws(GenerationError) -> Verdict {
        var message = "Rubric: \(rubric)\n\nTask given to the assistant:\n\(prompt)\n\nAssistant's answer:\n\(output)\n"
        if let reference { message += "\nA good reference answer:\n\(reference)\n" }
        message += "\nReply with a single digit from 1 to 5."
        let request = GenerationRequest(
            instructions: "You are a strict grader. You reply with one digit only.",
            messages: [.user(message)],
            options: GenerationOptions(maxOutputTokens: 4, sampling: .greedy, seed: 1))
        let response = try await model.generate(request)
        let digit = response.text.first { ("1"..."5").contains(String($0)) }
        let score = digit.flatMap { Int(String($0)) }.map { Double($0 - 1) / 4 }
        let cost = (Double(response.usage.promptTokens) * inputPricePerMillion
            + Double(response.usage.completionTokens) * outputPricePerMillion) / 1_000_000
        return Verdict(score: score, rawAnswer: response.text, usage: response.usage, costUSD: cost, judgeModel: model.id)
    }

    /// The `judge` score as stored, with the judge's own tokens and cost in its detail (never in the arm's cost).
    /// nil when the judge fails or answers without a digit, so a failed judgement never averages in as 0.
    public func qualityScore(prompt: String, output: String, reference: String?) async -> QualityScore? {
        guard let verdict = try? await judge(prompt: prompt, output: output, reference: reference),
            let score = verdict.score
        else { return nil }
        let detail: JSONValue = [
            "judge_model": .string(verdict.judgeModel), "answer": .string(verdict.rawAnswer),
            "prompt_tokens": .int(verdict.usage.promptTokens), "completion_tokens": .int(verdict.usage.completionTokens),
            "cost_usd": .double(verdict.costUSD),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let detailText = (try? encoder.encode(detail)).map { String(decoding: $0, as: UTF8.self) }
        return QualityScore(scorer: LLMJudge.scorerName, value: score, detail: detailText)
    }

    /// The scorer name judge scores are stored under.
    public static let scorerName = "judge"
}
