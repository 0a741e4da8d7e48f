import ArgumentParser
import Foundation
import HybridReport
import HybridRunner
import HybridStore

/// `hybrid report RUN`: writes Markdown, HTML, JSON and JUnit reports of a stored run under `reports/RUN/`.
///
/// Exit codes: 0 written (and every gate held, when `--gate` is given), 3 a gate failed, 1 an error.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write the report of a stored run (Markdown, HTML, JSON, JUnit) under reports/RUN/.",
        discussion: "Exit codes: 0 success, 3 a gate failed (with --gate), 1 error."
    )

    @Argument(help: "The run id.")
    var run: String
    @OptionGroup var output: ReportOutputOptions
    @Option(name: .customLong("pair"), help: "Compare these two arms (\"variant@model,variant@model\"); repeatable. Default: the best arm against each other arm.")
    var pairs: [String] = []
    @Option(help: "A gates file (see README: Reports); failed gates exit 3.")
    var gate: String?
    // Not `--config`: the root command's global `--config` takes that name wherever it appears.
    @Option(help: "Field runs: the config (file or URL) whose rollout split the sample-ratio check uses; without it no effect is reported.")
    var rolloutConfig: String?
    @Option(help: "Field runs: the rollout arm the others are compared with (default: `default` when it has a share, else the first arm).")
    var control: String?
    @OptionGroup var split: FieldSplit
    @Option(help: "A `hybrid judge-check --out` file: the judge's measured agreement with people, printed with its scores.")
    var judgeCheck: String?

    func run() async throws {
        try await ReportCLI.guarded {
            let options = try ReportCLI.options(pairs: pairs, worst: output.worst, reducer: output.reducer)
            let location = try output.database.store
            let store = try await ReportCLI.openStore(location)
            var report: RunReport
            let fieldStore = try await location.fieldEvents()
            if try await fieldStore.isFieldRun(run) {
                report = try await FieldRunReport.build(
                    run: run, store: store, fieldStore: fieldStore, config: rolloutConfig, db: output.db, control: control,
                    options: options, segments: split)
            } else {
                report = try await ReportBuilder(options: options).build(store: store, runID: run)
                await RecommendedArm.annotate(&report, run: run, store: store, reducer: output.reducer)
                await CostQualityAnnotation.annotate(&report, run: run, store: store)
                report.judgeReliability = try ReportCLI.judgeReliability(of: report, check: judgeCheck)
            }
            if let gate {
                report.gates = GateEvaluator.evaluate(report: report, gates: try GateSpec.load(path: gate), baseline: nil)
            }
            try ReportCLI.write(report, output: output)
            return report.gates?.exitCode ?? 0
        }
    }
}

/// `hybrid compare RUN_A RUN_B` or `hybrid compare --baseline FILE RUN`: the run against a baseline, with
/// regression gates (significant paired regressions by default) and optional threshold gates.
///
/// Exit codes: 0 every gate held, 3 a gate failed, 1 an error.
struct CompareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare a run with a baseline run or a committed baseline report.json, and gate it for CI.",
        discussion: """
            hybrid compare RUN_A RUN_B              RUN_B against RUN_A, both in the database
            hybrid compare --baseline FILE RUN      RUN against a committed report.json
            Without --gate, a significant regression (paired 95% CI excluding zero, Holm-adjusted) fails.
            Reports go to reports/compare-RUN_A-vs-RUN_B (or compare-FILE-vs-RUN) unless --out says otherwise.
            Exit codes: 0 all gates hold, 3 a gate failed, 1 error.
            """
    )

    @Argument(help: "RUN_A RUN_B (baseline first), or one RUN with --baseline.")
    var runs: [String]
    @Option(help: "A baseline report.json (e.g. the committed reports/baseline.json).")
    var baseline: String?
    @Option(help: "A gates file: thresholds per feature and arm, and the regression rule.")
    var gate: String?
    @OptionGroup var output: ReportOutputOptions

    func validate() throws {
        if baseline != nil, runs.count != 1 {
            throw ValidationError("with --baseline give exactly one RUN")
        }
        if baseline == nil, runs.count != 2 {
            throw ValidationError("give RUN_A RUN_B (baseline first), or --baseline FILE RUN")
        }
    }

    func run() async throws {
        try await ReportCLI.guarded {
            let options = try ReportCLI.options(pairs: [], worst: output.worst, reducer: output.reducer)
            let store = try await ReportCLI.openStore(try output.database.store)
            let builder = ReportBuilder(options: options)
            let currentID = runs[runs.count - 1]
            var report = try await builder.build(store: store, runID: currentID)
            // The same ★ as the run's own report: what `hybrid recommend` would serve first.
            await RecommendedArm.annotate(&report, run: currentID, store: store, reducer: output.reducer)
            let base: RunReport
            let source: String
            if let baseline {
                base = try RunReport.load(path: baseline)
                source = baseline
            } else {
                base = try await builder.build(store: store, runID: runs[0])
                source = "store"
            }
            report.baseline = BaselineComparator.compare(current: report, baseline: base, source: source, options: options)
            // With both runs stored the flipped cases carry both outputs; a baseline file gives only its pass/fail.
            report.baseline?.flips = baseline == nil
                ? try await CaseFlips.find(store: store, baselineRunID: runs[0], candidateRunID: currentID)
                : try await CaseFlips.find(store: store, baseline: base, candidateRunID: currentID)
            let gates = try gate.map { path throws(ReportError) in try GateSpec.load(path: path) }
                ?? GateSpec(regression: RegressionRule(mode: .significant))
            report.gates = GateEvaluator.evaluate(report: report, gates: gates, baseline: base)
            try ReportCLI.write(report, out: output.out ?? defaultOut(currentID: currentID), format: output.format)
            if gate == nil {
                // Without --gate the gates are the default rule: "all held" must not read as "no case got worse".
                print("(no --gate: the default gate fails only a significant paired regression (Holm-adjusted); flips below are counted, not gated)")
            }
            if let flips = report.baseline?.flips { Self.printFlips(flips) }
            return report.gates?.exitCode ?? 0
        }
    }

    /// `reports/compare-A-vs-B` (A is the baseline run, or the baseline file's name without `.json`): a comparison
    /// never writes into a run's own report folder, whose files (a gated run's CI artifact) it would overwrite.
    private func defaultOut(currentID: String) -> String {
        let base = baseline.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent } ?? runs[0]
        return "reports/" + ReportCLI.safeName("compare-\(base)-vs-\(currentID)")
    }

    /// The flipped cases in brief, pass→fail first; the reports hold both outputs of each.
    static func printFlips(_ flips: CaseFlips) {
        print("flipped cases (\(flips.baselineRunID) → \(flips.candidateRunID)): "
            + "\(flips.passToFailCount) pass→fail, \(flips.failToPassCount) fail→pass")
        for arm in flips.arms {
            for (title, list, omitted) in [
                ("pass→fail", arm.passToFail, arm.omittedPassToFail), ("fail→pass", arm.failToPass, arm.omittedFailToPass),
            ] where !list.isEmpty {
                let more = omitted > 0 ? " and \(omitted) more" : ""
                print("  \(arm.feature) \(arm.armID) \(title): " + list.map(\.caseID).joined(separator: ", ") + more)
            }
        }
    }
}

/// Options shared by `report` and `compare`.
struct ReportOutputOptions: ParsableArguments {
    @OptionGroup var database: DatabaseOption
    /// `--db` as given, for a nested command line (`FieldRunReport` loads the rollout config with it); stores
    /// are opened through `database.store` only.
    var db: String { database.given }
    @Option(help: "Output directory (default: reports/RUN; for compare reports/compare-A-vs-B, never a run's own folder).")
    var out: String?
    @Option(help: "Comma-separated formats: md, html, json, junit.")
    var format = "md,html,json,junit"
    @Option(help: "Worst cases listed per arm.")
    var worst = 5
    @Option(
        help: "What a repeated case's checks reduce to before every interval and test: mean (pass share), all (pass^k), any (pass@k).",
        transform: ReportCLI.reducer)
    var reducer: RepeatReducer = .mean

    func validate() throws {
        try OptionChecks.atLeast(0, worst, option: "--worst")
    }
}

/// The glue both commands share: option parsing, opening the store, writing files, exit codes.
enum ReportCLI {
    /// The judge's measured reliability from `check` in place of what the report found with the run (the figures
    /// `--judge-labels` stored, or "unmeasured"); nil when no judge scored the run.
    static func judgeReliability(of report: RunReport, check: String?) throws -> JudgeReliabilitySummary? {
        guard report.judgeReliability != nil else { return nil }
        return try check.map(LabelFile.judgeCheck) ?? report.judgeReliability
    }

    /// Runs `body` and turns its result into the exit code; errors print their message and exit 1.
    static func guarded(_ body: () async throws -> Int32) async throws {
        let code: Int32
        do {
            code = try await body()
        } catch let error as ExitCode {
            throw error
        } catch {
            printError("error: \(error)")
            throw ExitCode(1)
        }
        if code != 0 { throw ExitCode(code) }
    }

    static func options(pairs: [String], worst: Int, reducer: RepeatReducer = .mean) throws -> ReportOptions {
        var options = ReportOptions(worstCasesPerArm: max(0, worst), reducer: reducer)
        if !pairs.isEmpty {
            options.pairs = try pairs.map { text in
                guard let pair = ArmPair(parsing: text) else {
                    throw ValidationError("--pair expects two arm ids separated by a comma, got '\(text)'")
                }
                return pair
            }
        }
        return options
    }

    /// The result store at `location`; a SQLite file must exist already (a report of nothing is a mistake).
    static func openStore(_ location: StoreLocation) async throws -> any ResultStore {
        if case .sqlite(let path) = location, !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("no results database at \(path); run `hybrid eval` first or pass --db PATH")
        }
        return try await location.results()
    }

    static func write(_ report: RunReport, output: ReportOutputOptions) throws {
        try write(report, out: output.out, format: output.format)
    }

    /// Writes `report` in the listed formats to `out` (default `reports/RUN/`) and prints the gates.
    static func write(_ report: RunReport, out: String?, format: String = "md,html,json,junit") throws {
        guard let formats = ReportFormat.parseList(format) else {
            throw ValidationError("--format takes a comma-separated list of md, html, json, junit; got '\(format)'")
        }
        let directory = URL(fileURLWithPath: out ?? "reports/\(safeName(report.runID))")
        // First, before any file: a model that answered nothing makes every figure about it empty.
        for model in report.unansweredModels {
            print("\(model.modelID) answered 0 of \(model.results) results; why:")
            for reason in model.reasons { print(reason.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")) }
        }
        let written = try ReportWriter.write(report, formats: formats, to: directory)
        for url in written {
            print("wrote \(url.path)")
        }
        if let gates = report.gates {
            let failures = gates.failures
            if failures.isEmpty {
                print("gates: all \(gates.results.count) held")
            } else {
                print("gates: \(failures.count) of \(gates.results.count) failed")
                for failure in failures {
                    print("  FAIL \(failure.feature) \(failure.armID) \(failure.gate): \(failure.message)")
                }
            }
        }
    }

    /// Run ids become folder names; keep them to one safe path component.
    static func safeName(_ id: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        let cleaned = String(id.map { allowed.contains($0) ? $0 : "_" })
        return cleaned.isEmpty || cleaned.allSatisfy({ $0 == "." }) ? "run" : cleaned
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}

extension ReportCLI {
    /// `--reducer mean|all|any`.
    static func reducer(_ text: String) throws -> RepeatReducer {
        guard let reducer = RepeatReducer(rawValue: text) else {
            throw ValidationError("--reducer takes mean, all or any; got '\(text)'")
        }
        return reducer
    }
}
