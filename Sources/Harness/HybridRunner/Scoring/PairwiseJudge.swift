public import HybridCore
public import HybridStore

/// Judges two answers to the same case against each other, in both orders (first shown as A, then as B), so a
/// judge that favours a position cannot pass it off as a preference: a case whose two orders disagree is
/// *inconsistent*, counted apart rather than as a win, and the rate of such cases is the judge's position bias.
public struct PairwiseJudge: Sendable {
    /// A judgement between the two answers, in the caller's order.
    public enum Preference: String, Sendable, Hashable, Codable {
        case first, second, tie
    }

    /// One case judged in both orders.
    public struct Verdict: Sendable, Hashable {
        /// The preference both orders agree on; nil when they disagree (or an answer could not be read).
        public var preference: Preference?
        /// What each order said, mapped back to the caller's order (nil: no A, B or TIE in the answer).
        public var forward: Preference?
        public var swapped: Preference?
        /// The judge's answers verbatim, forward then swapped.
        public var rawAnswers: [String]
        /// Tokens of both calls (never counted in an arm's usage).
        public var usage: TokenUsage
        /// Cost of both calls in US dollars, from the judge's prices.
        public var costUSD: Double

        /// True when the two orders gave different answers.
        public var isInconsistent: Bool { preference == nil }
    }

    /// The model that judges.
    public var model: any LanguageModel
    /// What "better" means for this feature.
    public var criteria: String
    /// Dollars per million input and output tokens of the judge model.
    public var inputPricePerMillion: Double
    public var outputPricePerMillion: Double
    /// Where judgements are cached by (judge, criteria, both outputs in order), so they are never paid for twice.
    public var cache: (any ResultStore)?
    /// A cap on the judge's spending; a case whose calls do not fit is not judged.
    public var budget: JudgeBudget?

    public init(model: any LanguageModel, criteria: String, inputPricePerMillion: Double = 0, outputPricePerMillion: Double = 0) {
        self.model = model
        self.criteria = criteria
        self.inputPricePerMillion = inputPricePerMillion
        self.outputPricePerMillion = outputPricePerMillion
    }

    /// Judges `first` against `second` (answers to `prompt`) in both orders.
    public func judge(prompt: String, first: String, second: String, reference: String? = nil) async throws(GenerationError) -> Verdict {
        let forward = try await ask(prompt: prompt, a: first, b: second, reference: reference)
        let swapped = try await ask(prompt: prompt, a: second, b: first, reference: reference)
        let forwardPreference = Self.read(forward.text)
        let swappedPreference = Self.read(swapped.text).map(Self.swap)
        let agreed = forwardPreference != nil && forwardPreference == swappedPreference ? forwardPreference : nil
        let usage = TokenUsage(
            promptTokens: forward.usage.promptTokens + swapped.usage.promptTokens,
            completionTokens: forward.usage.completionTokens + swapped.usage.completionTokens,
            isEstimated: forward.usage.isEstimated || swapped.usage.isEstimated)
        let cost = forward.costUSD + swapped.costUSD
        return Verdict(
            preference: agreed, forward: forwardPreference, swapped: swappedPreference, rawAnswers: [forward.text, swapped.text],
            usage: usage, costUSD: cost)
    }

    private func ask(prompt: String, a: String, b: String, reference: String?) async throws(GenerationError) -> JudgeCaller.Answer {
        var message = "Criteria: \(criteria)\n\nTask given to the assistants:\n\(prompt)\n\nAnswer A:\n\(a)\n\nAnswer B:\n\(b)\n"
        if let reference { message += "\nA good reference answer:\n\(reference)\n" }
        message += "\nWhich answer is better by the criteria? Reply with A, B or TIE only."
        let request = GenerationRequest(
            instructions: "You are a strict, impartial grader. The order of the answers says nothing about their quality.",
            messages: [.user(message)], options: GenerationOptions(maxOutputTokens: 4, sampling: .greedy, seed: 1))
        let caller = JudgeCaller(
            model: model, inputPricePerMillion: inputPricePerMillion, outputPricePerMillion: outputPricePerMillion,
            cache: cache, budget: budget)
        return try await caller.call(request)
    }

    /// A, B or TIE at the start of the answer (case and punctuation aside), as the answer's order.
    static func read(_ answer: String) -> Preference? {
        let word = answer.uppercased().split(whereSeparator: { !$0.isLetter }).first.map(String.init)
        switch word {
        case "A": return .first
        case "B": return .second
        case "TIE": return .tie
        default: return nil
        }
    }

    static func swap(_ preference: Preference) -> Preference {
        switch preference {
        case .first: .second
        case .second: .first
        case .tie: .tie
        }
    }
}

extension PairwiseJudge {
    /// The same judge with its judgements cached in `store`.
    public func cached(in store: any ResultStore) -> PairwiseJudge {
        var judge = self
        judge.cache = store
        return judge
    }
}
