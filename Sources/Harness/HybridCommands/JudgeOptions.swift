import ArgumentParser
import Foundation
import HybridConfig
import HybridCore
import HybridProviders
import HybridReport
import HybridRunner
import HybridStore

/// The judge options `eval` and `rescore` share: which model judges, how (a rubric, with or without named
/// dimensions, or pairs against a baseline arm), how often, within what budget, and measured against which labels.
struct JudgeOptions: ParsableArguments {
    enum Mode: String, ExpressibleByArgument, CaseIterable {
        case rubric, pairwise
    }

    @Option(help: "Model id that judges the outputs (its tokens and cost are reported apart from the arms').")
    var judge: String?
    @Option(help: "Rubric (pairwise: criteria) text, or @FILE: text, or JSON {\"rubric\", \"dimensions\": [{\"name\", \"description\", \"scale\"}]}.")
    var rubric: String?
    @Option(help: "rubric: score every output; pairwise: judge each arm's answer against --pairwise-baseline's, in both orders.")
    var judgeMode: Mode = .rubric
    @Option(help: "pairwise: the arm the others are judged against (default: the feature's current route, its default variant on the first model of its priority).")
    var pairwiseBaseline: String?
    @Option(help: "rubric: ask the judge K times per output with sampling on; each score is the mean of its repeats.")
    var judgeRepeats = 1
    @Option(help: "Stop calling the judge once it has spent this many US dollars (outputs it did not reach stay unjudged).")
    var judgeBudget: Double?
    @Option(help: "People's judgements: rubric, scored answers (JSON lines {\"id\", \"task\", \"answer\", \"score\"}) the judge is measured on first; pairwise, preferences {\"case\", \"preferred\": ARM|\"tie\"} stored with the verdicts. Every report of the run prints the agreement.")
    var judgeLabels: String?

    func validate() throws {
        let given = [rubric, pairwiseBaseline, judgeLabels, judgeBudget.map { "\($0)" }].contains { $0 != nil }
        if judge == nil && (given || judgeRepeats != 1 || judgeMode != .rubric) {
            throw ValidationError("--rubric, --judge-mode, --pairwise-baseline, --judge-repeats, --judge-budget and --judge-labels need --judge MODEL")
        }
        try OptionChecks.atLeast(1, judgeRepeats, option: "--judge-repeats")
        if let judgeBudget, !(judgeBudget >= 0 && judgeBudget.isFinite) { throw ValidationError("--judge-budget must be a number of dollars, 0 or more") }
        if judgeMode == .pairwise && judgeRepeats != 1 {
            throw ValidationError("--judge-repeats applies to --judge-mode rubric (pairwise judging asks both orders once)")
        }
        if judgeMode == .rubric && pairwiseBaseline != nil { throw ValidationError("--pairwise-baseline needs --judge-mode pairwise") }
    }

    /// The budget every judge call of this command shares; nil without `--judge-budget`.
    func makeBudget() -> JudgeBudget? { judgeBudget.map(JudgeBudget.init(limitUSD:)) }

    /// One line when the budget stopped judge calls (the outputs they were for stay unjudged); nothing otherwise.
    static func reportBudget(_ budget: JudgeBudget?) async {
        guard let budget, await budget.refusedCalls > 0 else { return }
        let (spent, refused) = (await budget.spentUSD, await budget.refusedCalls)
        CLIOutput.error(String(format: "judge budget: $%.6f of $%.6f spent; %d judge calls did not fit and were not made (those outputs are unjudged)", spent, budget.limitUSD, refused))
    }

    /// The rubric judge, cached in `store`; nil without `--judge` or in pairwise mode. Called before any model is,
    /// so an unknown judge stops the command before the run in either mode, not after it.
    func rubricJudge(
        document: HybridConfigDocument, store: any ResultStore, budget: JudgeBudget?, existing: [String: any LanguageModel] = [:]
    ) throws -> LLMJudge? {
        if let judge { _ = try Self.judgeConfig(judge, in: document) }
        guard judgeMode == .rubric,
            var judge = try Self.makeJudge(judge, rubric: rubric, document: document, factory: ModelFactory.harness(), existing: existing)
        else { return nil }
        judge.repeats = judgeRepeats
        judge.cache = store
        judge.budget = budget
        return judge
    }

    /// Measures the rubric judge on `--judge-labels` (printing the figures), for the run's arguments; nil without them.
    func measure(_ judge: LLMJudge?) async throws -> JudgeReliabilitySummary? {
        guard judgeMode == .rubric, let judge, let judgeLabels else { return nil }
        let (summary, text) = try await JudgeCheckCommand.measure(judge, labels: judgeLabels, minimumKappa: 0.6)
        print(text)
        return summary
    }

    /// Judges `runID`'s arms against the baseline in pairwise mode, printing what it did; nothing otherwise.
    func judgePairs(
        runID: String, feature: String, document: HybridConfigDocument, store: any ResultStore, budget: JudgeBudget?,
        existing: [String: any LanguageModel] = [:]
    ) async throws {
        guard judgeMode == .pairwise, let judge else { return }
        let config = try Self.judgeConfig(judge, in: document)
        let baseline = try pairwiseBaseline ?? Self.currentRoute(feature: feature, document: document)
        var pairwise = PairwiseJudge(
            model: existing[judge] ?? ModelFactory.harness().model(id: judge, config: config),
            criteria: try rubric.map(JudgePairsCommand.text) ?? LLMJudge.defaultRubric,
            inputPricePerMillion: config.pricing?.inputPerMillion ?? 0, outputPricePerMillion: config.pricing?.outputPerMillion ?? 0)
        pairwise.budget = budget
        let labels = try judgeLabels.map { try LabelFile.pairPreferences($0) } ?? [:]
        let pass = try await PairwisePass(store: store, judge: pairwise.cached(in: store))
            .run(runID: runID, baseline: baseline, labels: labels)
        guard pass.armsInRun.contains(baseline) else {
            throw CLIError("--pairwise-baseline \(baseline) is not an arm of run \(runID) (arms: \(pass.armsInRun.joined(separator: ", ")))")
        }
        var line = "pairwise: \(pass.judged) cases judged against \(baseline) by \(judge)"
        if pass.alreadyStored > 0 { line += ", \(pass.alreadyStored) already judged" }
        line += String(format: ", judge cost $%.6f", pass.judgeCostUSD)
        print(line)
        if let failure = pass.firstFailure {
            CLIOutput.error("\(pass.unjudged) cases not judged, first \(failure); run the same command again to finish them (judged cases are kept)")
        }
    }

    /// The configured model `judge`; an unknown id is an error listing the configured ones.
    static func judgeConfig(_ judge: String, in document: HybridConfigDocument) throws -> ModelConfig {
        guard let config = document.models[judge] else {
            throw CLIError("unknown judge model \"\(judge)\" (configured: \(document.models.keys.sorted().joined(separator: ", ")))")
        }
        // The judge's calls are billed and counted against --judge-budget: an unknown price would count as nothing.
        guard config.pricing != nil || !config.isMetered else {
            throw CLIError("judge model \"\(judge)\" has no pricing in the config: give models.\(judge).pricing (inputPerMillion, outputPerMillion)")
        }
        return config
    }

    /// The arm serving the feature today: its default variant on the first model of its priority order.
    static func currentRoute(feature: String, document: HybridConfigDocument) throws -> String {
        guard let config = document.features[feature], let model = config.priority.first else {
            throw CLIError("feature \(feature) has no priority order to take a baseline from; pass --pairwise-baseline ARM")
        }
        return "\(config.defaultVariant)@\(model)"
    }

    /// The judge for `--judge MODEL [--rubric TEXT|@FILE]`; nil without `--judge`. Shared with `judge-check`.
    static func makeJudge(
        _ judge: String?, rubric: String?, document: HybridConfigDocument, factory: ModelFactory,
        existing: [String: any LanguageModel] = [:]
    ) throws -> LLMJudge? {
        guard let judge else { return nil }
        let config = try judgeConfig(judge, in: document)
        var made = LLMJudge(
            model: existing[judge] ?? factory.model(id: judge, config: config),
            inputPricePerMillion: config.pricing?.inputPerMillion ?? 0, outputPricePerMillion: config.pricing?.outputPerMillion ?? 0)
        if let rubric {
            let file = rubric.hasPrefix("@") ? String(rubric.dropFirst()) : nil
            let text = try JudgePairsCommand.text(rubric)
            (made.rubric, made.dimensions) = try file.map { try RubricFile.read(text, path: $0) } ?? (text, [])
        }
        return made
    }
}
