import ArgumentParser
import Foundation
import HybridConfig
import HybridCore
import HybridProviders
import HybridReport
import HybridRunner
import HybridStore

/// `hybrid rescore RUN`: the stored outputs of a run checked and scored again into a new run, without model calls
/// (except a `--judge`'s). Reports and `compare` treat the new run like any other.
struct RescoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rescore",
        abstract: "Recompute checks and quality scores from a run's stored outputs into a new run, with no model calls.",
        discussion: """
            Checks default to the feature's schema and constraints in the config in force; --constraints and \
            --schema replace them. Scorers default to the run's. References come from the run's dataset, which must \
            be unchanged (or pass --dataset). The new run's provenance names the source run and what changed. \
            Only --judge calls a model. Then: hybrid compare RUN NEW lists the cases that flipped.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The run whose outputs to re-score.")
    var run: String

    @Option(help: "Comma-separated quality scorers (default: the run's).")
    var scorers: String?

    @Option(help: "A JSON file of output constraints (e.g. {\"maxWords\": 20}) replacing the feature's.")
    var constraints: String?

    @Option(help: "A JSON Schema file replacing the feature's output schema.")
    var schema: String?

    @OptionGroup(title: "Judging (the only model calls rescore makes)") var judging: JudgeOptions

    @Option(help: "The dataset to read references from (default: the run's, which must be unchanged).")
    var dataset: String?

    @Option(help: "Id for the new run (default: RUN-rescored-YYYYMMDD-HHMMSS).")
    var runID: String?

    func run() async throws {
        try await CLIOutput.run {
            let store = try await ReportCLI.openStore(global.store)
            guard let existing = try await store.run(id: run) else {
                throw CLIError("no run \(run) in \(global.database.shown); `hybrid report` lists runs")
            }
            let (document, _, source) = try await global.loadConfig(forRun: existing, store: store)
            print("config: \(source)")
            let settings = try EvalCommand.Settings(existing.arguments)
            var changes: [String] = []
            let checks = try self.checks(feature: settings.feature, document: document, configSource: source, changes: &changes)
            let scorerNames = scorers.map(EvalCommand.list) ?? settings.scorers
            if let scorers { changes.append("scorers: \(scorers)") }
            let budget = judging.makeBudget()
            let judgeModel = try judging.rubricJudge(document: document, store: store, budget: budget)
            if let judge = judging.judge { changes.append("judge: \(judge) (\(judging.judgeMode.rawValue))") }
            var arguments: [String: JSONValue] = [:]
            if let reliability = try await judging.measure(judgeModel) { arguments["judgeReliability"] = try? JSONValue(encoding: reliability) }
            let cases = try self.cases(run: existing, skipInvalid: settings.skipInvalid)
            var rescorer = Rescorer(
                store: store,
                scorer: SampleScorer(
                    schema: checks.schema, constraints: checks.constraints,
                    scorers: try EvalCommand.scorers(scorerNames, hasSchema: checks.schema != nil)),
                judge: judgeModel,
                references: cases.compactMapValues(\.reference), conversations: cases.compactMapValues(\.conversation))
            rescorer.keepsPairwiseVerdicts = judging.judge == nil || judging.judgeMode != .pairwise
            let newID = runID ?? "\(run)-rescored-\(EvalCommand.timestamp())"
            let summary = try await rescorer.rescore(sourceRunID: run, newRunID: newID, changes: changes, arguments: arguments)
            try await judging.judgePairs(runID: newID, feature: settings.feature, document: document, store: store, budget: budget)
            await JudgeOptions.reportBudget(budget)
            let calls = judging.judge == nil ? "no model calls" : "no model calls except the judge's"
            print("rescored \(summary.stored) results of \(run) into run \(newID) (\(calls)): "
                + "\(summary.passToFail) pass→fail, \(summary.failToPass) fail→pass")
            print("changed: " + changes.joined(separator: "; "))
            print("next: hybrid report \(newID), or hybrid compare \(run) \(newID)")
        }
    }

    /// The schema and constraints to check: the overrides, else the feature's in the config in force.
    private func checks(
        feature: String, document: HybridConfigDocument, configSource: String, changes: inout [String]
    ) throws -> (schema: JSONSchema?, constraints: OutputConstraints?) {
        let config = document.features[feature]
        var schema = config?.outputSchema
        var limits = config?.constraints
        if let path = self.schema {
            schema = try Self.loadSchema(path)
            changes.append("schema from \(path)")
        }
        if let path = constraints {
            let loaded = try CheckCommand.loadConstraints(path)
            limits = loaded
            changes.append("constraints from \(path): \(Self.compactJSON(loaded))")
        }
        if self.schema == nil || constraints == nil {
            guard config != nil else {
                throw CLIError("feature \"\(feature)\" is not in the config in force (\(configSource)); pass --config, or both --schema and --constraints")
            }
            changes.append("other checks from the config in force (\(configSource), v\(document.version))")
        }
        return (schema, limits)
    }

    /// The run's dataset cases (or `--dataset`'s) by id, refusing a dataset that changed since.
    private func cases(run existing: RunRecord, skipInvalid: Bool) throws -> [String: EvalCase] {
        let path = dataset ?? existing.datasetPath
        let data: Dataset
        do {
            data = try Dataset.load(path: path, skipInvalid: skipInvalid)
        } catch {
            throw CLIError("\(error); pass --dataset PATH with the dataset run \(existing.id) used")
        }
        if dataset == nil, data.contentHash != existing.datasetHash {
            throw CLIError("\(path) changed since run \(existing.id) (content hash differs), so its references may not match the stored outputs; pass --dataset PATH to use it anyway")
        }
        return Dictionary(data.cases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    static func loadSchema(_ path: String) throws -> JSONSchema {
        let value = try CheckCommand.readJSON(path)
        do {
            return try JSONSchema(value)
        } catch {
            throw CLIError("\(path): not a usable JSON Schema: \(error)")
        }
    }

    private static func compactJSON(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
