import ArgumentParser
import Foundation
import HybridConfig
import HybridCore
import HybridProviders
import HybridReport
import HybridRunner

/// `hybrid judge-pairs RUN --arms A,B --judge MODEL`: two arms of a run judged against each other case by case, in
/// both orders, with the judge's measured reliability.
struct JudgePairsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "judge-pairs",
        abstract: "Judge two arms of a run against each other, case by case, in both orders; report the judge's reliability.",
        discussion: """
            Each case's two answers go to the judge twice, once in each order; a case whose orders disagree is \
            counted as inconsistent (the judge's position bias), never as a win. With --labels (JSON lines \
            {"case": ID, "preferred": ARM_A|ARM_B|"tie"} from people) the judge's agreement with people is measured; \
            without 10 labelled cases at 70 % agreement or more, or when the judge's model served one of the arms, \
            its preferences are shown and not to be decided on. Writes pairwise-A-vs-B.{md,json} under --out.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The run whose arms to judge.") var run: String
    @Option(help: "The two arm ids, A,B (see `hybrid report RUN`).") var arms: String
    @Option(help: "Model id that judges (its tokens and cost are reported apart).") var judge: String
    @Option(help: "What makes an answer better, or @FILE.") var criteria = "Which answer does the task better: correct, complete, concise."
    @Option(help: "People's preferences: a JSON-lines file of {\"case\", \"preferred\"}.") var labels: String?
    @Option(help: "Folder for the summary (default reports/RUN).") var out: String?

    func validate() throws {
        guard pair.count == 2, pair[0] != pair[1] else { throw ValidationError("--arms takes two different arm ids, A,B; found \(arms)") }
    }

    var pair: [String] { arms.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }

    func run() async throws {
        try await CLIOutput.run {
            let store = try await ReportCLI.openStore(global.store)
            guard let record = try await store.run(id: run) else { throw CLIError("no run \(run) in \(global.database.shown)") }
            let (document, _, _) = try await global.loadConfig(forRun: record, store: store)
            let config = try JudgeOptions.judgeConfig(judge, in: document)
            let judgeModel = PairwiseJudge(
                model: ModelFactory.harness().model(id: judge, config: config), criteria: try Self.text(criteria),
                inputPricePerMillion: config.pricing?.inputPerMillion ?? 0, outputPricePerMillion: config.pricing?.outputPerMillion ?? 0)
            let labelled = try labels.map { try LabelFile.pairPreferences($0, arms: pair) } ?? [:]
            let pass = try await PairwisePass(store: store, judge: judgeModel.cached(in: store))
                .run(runID: run, baseline: pair[0], arms: [pair[1]], labels: labelled)
            for arm in pair where !pass.armsInRun.contains(arm) {
                throw CLIError("run \(run) has no arm \(arm) (arms: \(pass.armsInRun.joined(separator: ", ")))")
            }
            if let failure = pass.firstFailure {
                throw CLIError("\(pass.unjudged) cases not judged, first \(failure); run again to finish (judged cases are kept)")
            }
            let verdicts = try await store.pairwiseVerdicts(run: run).filter {
                $0.baselineArmID == pair[0] && $0.armID == pair[1]
            }
            guard let summary = PairwiseSummary.all(from: verdicts).first(where: { $0.judge == judge }) else {
                throw CLIError("arms \(pair[0]) and \(pair[1]) of run \(run) have no case both answered; nothing to judge")
            }
            try write(summary)
            print(summary.markdown())
        }
    }

    private func write(_ summary: PairwiseSummary) throws {
        let folder = URL(fileURLWithPath: out ?? "reports/\(run)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let name = "pairwise-\(pair[0])-vs-\(pair[1])"
        try Data(summary.markdown().utf8).write(to: folder.appendingPathComponent(name + ".md"))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(summary).write(to: folder.appendingPathComponent(name + ".json"))
        CLIOutput.error("wrote \(folder.path)/\(name).{md,json}")
    }

    static func text(_ value: String) throws -> String {
        guard value.hasPrefix("@") else { return value }
        guard let data = FileManager.default.contents(atPath: String(value.dropFirst())) else {
            throw CLIError("cannot read \(value.dropFirst())")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
