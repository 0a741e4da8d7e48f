import ArgumentParser
import Foundation
import HybridConfig
import HybridCore
import HybridCurl
import HybridProviders
import HybridReport
import HybridRunner
import HybridStore

/// `hybrid eval`: a dataset through every arm of a feature, every result stored as it completes.
struct EvalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Run a dataset through every prompt variant × model of a feature and store every result.",
        discussion: """
            By default every variant runs on every model in the feature's priority order. Unavailable models \
            (no API key, local model not installed) are stored as `unavailable` errors, not dropped. Ctrl-C stops \
            dispatching and leaves a resumable run: `hybrid eval --resume RUN`.

            Scorers (--scorers NAME,…; NAME>=X makes any of them decide pass/fail at X, e.g. rouge_l>=0.4):
            \(scorerHelp)
            A scorer that decides pass/fail adds a check of its name to each result it scores: a failing one fails \
            the case, counts in adherence, pass→fail flips, `compare` and the gates.

            Exit codes: 0 success; 1 the work failed; 3 a --gate failed; 5 a model the feature depends on answered \
            none of its cases (--allow-unavailable accepts that); 64 usage error (an unknown scorer, a bad option); \
            130 interrupted (finish with --resume RUN).
            """)

    @OptionGroup var global: GlobalOptions

    @OptionGroup var targeting: LabelOptions

    @Option(help: "Feature to evaluate (a key of `features` in the config).")
    var feature: String?

    @Option(help: "Dataset file (.jsonl or .csv).")
    var dataset: String?

    @Option(help: "Comma-separated model ids (default: the feature's priority order).")
    var models: String?

    @Option(help: "Comma-separated prompt variants (default: all).")
    var variants: String?

    @Option(name: .customLong("repeat"), help: "Times to send each case to each arm (default: 1).")
    var repeats: Int?

    @Option(help: "Use only the first N cases.")
    var limit: Int?

    @Option(help: "Requests in flight across all arms.")
    var concurrency: Int = 32

    @Option(help: "Requests in flight per model, for every model (default: each model's maxConcurrency from the config: 1 for local servers, 16 for hosted APIs).")
    var perModelConcurrency: Int?

    @Flag(help: "Send prompts that look larger than the model's declared context window instead of storing them as context_window_exceeded without a call.")
    var sendOversizedPrompts = false

    @Option(help: "Seed for the dispatch order and retry jitter (default: 42).")
    var seed: UInt64?

    @Option(help: "Comma-separated quality scorers, NAME or NAME>=X to pass at X (default: field_match for features with a schema, else token_f1,rouge_l; listed below).")
    var scorers: String?

    @OptionGroup(title: "Judging") var judging: JudgeOptions

    @Flag(help: "Reuse stored outputs for identical requests (cache hits are marked and left out of latency); each repeat is its own draw, never served from another.")
    var cache = false

    @Flag(help: "Skip malformed dataset lines instead of refusing to start; the run records how many.")
    var skipInvalid = false

    @Flag(help: "Exit 0 even when a model the feature depends on (on-device, or first in its priority order) answered none of its cases; by default that exits 5.")
    var allowUnavailable = false

    @Option(help: "A gates file: after the run, write its report under reports/RUN/ and exit 3 when a gate fails.")
    var gate: String?

    @Option(help: "With --gate: a baseline report.json to check regressions against.")
    var baseline: String?

    @Option(help: "Id for the new run (default: FEATURE-YYYYMMDD-HHMMSS).")
    var runID: String?

    @Option(help: "Finish the missing results of an interrupted run; refused when the config, dataset or plan differs.")
    var resume: String?

    @Option(help: "Run only shard I of N (1-based, e.g. 2/4): the keys whose hash falls in it. Needs --run-id, the same for every shard; join the shards' databases with `hybrid merge`.")
    var shard: String?

    @Flag(help: "Be one of many workers filling the shared run --run-id (needs --db postgres://…): claim batches of its pending keys under a lease until every key is stored. The first worker creates the run, the last marks it completed.")
    var worker = false

    @Option(help: "With --worker: seconds a claimed batch stays leased; a killed worker's keys return after this (default: 120).")
    var leaseSeconds: Double = 120

    @Option(help: "With --worker: keys claimed at a time (default: 16).")
    var claimBatch: Int = 16

    @Option(help: "With --worker: this worker's name in the leases (default: HOST-PID).")
    var workerID: String?

    @OptionGroup(title: "OpenTelemetry") var otlp: OTLPOptions

    func validate() throws {
        if worker && (runID == nil || resume != nil) {
            throw ValidationError("--worker needs --run-id (the same on every worker) and no --resume")
        }
        if worker && !(leaseSeconds > 0 && leaseSeconds.isFinite) { throw ValidationError("--lease-seconds must be positive") }
        try OptionChecks.atLeast(1, claimBatch, option: "--claim-batch")
        if resume == nil && (feature == nil || dataset == nil) {
            throw ValidationError("give --feature and --dataset, or --resume RUN")
        }
        try OptionChecks.atLeast(1, repeats, option: "--repeat")
        // Before anything starts (a local server takes seconds): a misspelt scorer is a usage error.
        for item in scorers.map(Self.list) ?? [] where StandardScorers.parse(item) == nil {
            throw ValidationError(Self.unknownScorer(item))
        }
        try OptionChecks.atLeast(1, limit, option: "--limit")
        try OptionChecks.atLeast(1, concurrency, option: "--concurrency")
        try OptionChecks.atLeast(1, perModelConcurrency, option: "--per-model-concurrency")
        if let shard {
            if worker { throw ValidationError("--shard and --worker do not combine: workers already share one run's keys") }
            do {
                _ = try EvalShard(parsing: shard)
            } catch {
                throw ValidationError(error.description)
            }
            if resume == nil && runID == nil {
                throw ValidationError(
                    "--shard needs --run-id: every shard must record the same run id for `hybrid merge` to join them "
                        + "(e.g. --run-id nightly-$GITHUB_RUN_ID); without it each shard would name its own run")
            }
        }
    }

    func run() async throws {
        try await otlp.exporting { try await evaluate() }
    }

    func evaluate() async throws {
        try await CLIOutput.run {
            let (loaded, loadedHash, loadedSource) = try await global.loadConfig()
            // Under --label the run evaluates (and stores) the config as that install resolves it.
            let (document, targetLines) = try targeting.target(loaded)
            let configHash = targetLines.isEmpty ? loadedHash : GlobalOptions.hash(document)
            let source = targetLines.isEmpty ? loadedSource : "\(loadedSource), resolved for the labels"
            let queue = worker ? try await global.store.queue() : nil
            let store: any ResultStore
            if let queue { store = queue } else { store = try await global.openStore() }
            var settings = Settings(
                feature: feature ?? "", dataset: dataset ?? "", models: models.map(Self.list), variants: variants.map(Self.list),
                repeats: repeats ?? 1, limit: limit, seed: seed ?? 42, cache: cache, skipInvalid: skipInvalid,
                scorers: scorers.map(Self.list))
            settings.config = source
            settings.shard = shard
            settings.labels = try targeting.labels().nilIfEmpty
            let runID: String
            if let resume {
                guard let existing = try await store.run(id: resume) else {
                    throw CLIError("no run \(resume) in \(global.database.shown); `hybrid report` lists runs")
                }
                // What is given again on the command line overrides the stored plan, so a changed plan is refused
                // by name below instead of being silently ignored.
                settings = try Settings(existing.arguments).overridden(by: self)
                runID = resume
            } else {
                runID = self.runID ?? "\(settings.feature)-\(Self.timestamp())"
            }

            // Streamed unless lines may be skipped (the plan counts only valid lines) or a run is resumed (its
            // stored keys are matched against every case id).
            let data = settings.skipInvalid || resume != nil
                ? try Dataset.load(path: settings.dataset, skipInvalid: settings.skipInvalid)
                : try Dataset.open(path: settings.dataset)
            for skipped in data.skipped { CLIOutput.error("skipped: \(skipped)") }
            var plan = try EvalPlan(
                runID: runID, feature: settings.feature, config: document, configHash: configHash, dataset: data,
                models: settings.models, variants: settings.variants, repeats: settings.repeats, limit: settings.limit,
                seed: settings.seed)
            plan.shard = try settings.shard.map { text throws(EvalShard.InvalidShard) in try EvalShard(parsing: text) }
            // The run remembers the config it ran under (once per hash): rescore, simulate and recommend read it back.
            try await store.saveConfig(String(decoding: document.encodedJSON(pretty: false), as: UTF8.self), hash: configHash)
            if resume != nil {
                let check: ResumeCheck
                do {
                    check = try await ResumeCheck.check(plan, store: store)
                } catch {
                    throw CLIError("\(error)" + (settings.config.map { " (run \(runID) started with config: \($0))" } ?? ""))
                }
                if check.alreadyCompleted {
                    print("run \(runID) is already completed (\(check.completedKeys.count)/\(plan.plannedCount) results); \(judging.judgeMode == .pairwise ? "no arm was called again" : "nothing was sent or changed")")
                    try await judging.judgePairs(
                        runID: runID, feature: plan.feature, document: document, store: store, budget: judging.makeBudget())
                    try await gateOrSuggestReport(runID: runID)
                    return
                }
            }
            let factory = ModelFactory.harness()
            var languageModels: [String: any LanguageModel] = [:]
            for arm in plan.arms where languageModels[arm.modelID] == nil {
                languageModels[arm.modelID] = factory.model(id: arm.modelID, config: document.models[arm.modelID]!)
            }
            await Self.prepare(languageModels)

            let judgeBudget = judging.makeBudget()
            let rubricJudge = try judging.rubricJudge(document: document, store: store, budget: judgeBudget, existing: languageModels)
            if resume == nil, let reliability = try await judging.measure(rubricJudge) { settings.judgeReliability = reliability }
            let judgePairs = { [judging] in
                try await judging.judgePairs(
                    runID: runID, feature: plan.feature, document: document, store: store, budget: judgeBudget, existing: languageModels)
            }

            let slice = plan.shard.map { " (shard \($0): \(plan.workOrder.count) of them)" } ?? ""
            let header = ["run \(runID): feature \(plan.feature), \(plan.dataset.count) cases × \(plan.arms.count) arms × \(plan.repeats) = \(plan.plannedCount) results\(slice) (config: \(source), v\(document.version))"]
                + targetLines + [concurrencyLine(plan, document)]
            let runner = EvalRunner(
                store: store, models: languageModels,
                options: EvalOptions(
                    concurrency: concurrency, perModelConcurrencyOverrides: perModelLimits(plan, document),
                    useCache: settings.cache,
                    scorers: try Self.scorers(settings.scorers, hasSchema: plan.featureConfig.outputSchema != nil),
                    judge: rubricJudge,
                    sendOversizedPrompts: sendOversizedPrompts, taskExecutor: CurlTransport.shared.taskExecutor))
            let reporter = ProgressReporter(label: runID, header: header)
            let trap = InterruptTrap()
            let workerOptions = WorkerOptions(
                workerID: workerID ?? "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)",
                batchSize: claimBatch, lease: .milliseconds(Int64(leaseSeconds * 1000)))
            let task = Task { [plan, settings] in
                if let queue {
                    return try await runner.runWorker(
                        plan, queue: queue, worker: workerOptions, arguments: settings.json, progress: reporter.update)
                }
                return try await runner.run(plan, resume: resume != nil, arguments: settings.json, progress: reporter.update)
            }
            trap.install { task.cancel() }
            let summary = try await task.value
            reporter.finish()

            Self.printUnavailable(summary.unavailableArms)
            let skipped = summary.unavailable > 0 ? ", \(summary.unavailable) skipped (unavailable)" : ""
            print("stored \(summary.stored)/\(summary.planned) results (\(summary.errors) errors\(skipped), \(summary.cacheHits) cache hits) in \(global.database.shown), run \(runID)")
            if summary.interrupted, worker {
                print("worker stopped: its leased keys return to the queue when their lease expires; any worker finishes the run")
                throw ExitCode(130)
            }
            if summary.alreadyCompleted, worker {
                print("run \(runID) is already completed; nothing was sent or changed")
            }
            if summary.interrupted {
                print("interrupted: finish it with `hybrid eval --resume \(runID)`")
                throw ExitCode(130)
            }
            let silent = try await MeasuredNothing.check(
                summary: summary, plan: plan, config: document, models: languageModels, store: store)
            if !silent.isEmpty && !allowUnavailable {
                for line in silent { CLIOutput.error(line) }
                CLIOutput.error(
                    "the run measured nothing on a model the feature depends on; the results are stored (run \(runID)) "
                        + "but no decision should be taken from them. Fix the cause above, or pass --allow-unavailable "
                        + "to accept such a run (exit \(MeasuredNothing.exitCode))")
                throw ExitCode(MeasuredNothing.exitCode)
            }
            if !worker { try await judgePairs() }
            await JudgeOptions.reportBudget(judgeBudget)
            try await gateOrSuggestReport(runID: runID)
        }
    }

    /// Starts and warms each local model before anything is timed, so start-up is not charged to the first request
    /// (cloud models have nothing to prepare). A model that fails here is failed once, with the whole reason: its
    /// availability then says why, and the runner stores its arms as unavailable without calling it per case.
    static func prepare(_ models: [String: any LanguageModel]) async {
        for model in models.values.sorted(by: { $0.id < $1.id }) where await model.availability().isAvailable {
            guard model.tier == .onDevice else {
                try? await model.prepare()
                continue
            }
            FileHandle.standardError.write(Data("preparing \(model.id)…\n".utf8))
            do {
                try await model.prepare()
            } catch {
                CLIOutput.error("\(model.id) cannot serve this run: \(error.reason?.message ?? error.description)")
            }
        }
    }

    /// One line per unavailable model (not per arm), with its reason in full.
    static func printUnavailable(_ arms: [(arm: EvalArm, reason: String)]) {
        var order: [String] = []
        var byModel: [String: (arms: [String], reason: String)] = [:]
        for (arm, reason) in arms {
            if byModel[arm.modelID] == nil { order.append(arm.modelID) }
            byModel[arm.modelID, default: ([], reason)].arms.append(arm.id)
        }
        for model in order {
            let entry = byModel[model]!
            print("unavailable: \(model) (arms \(entry.arms.joined(separator: ", "))): \(entry.reason)")
        }
    }

    /// What caps the run, said before it starts: `--concurrency` overall, and each model's limit with where it
    /// came from (a hosted model left at the default of 16 caps a `--concurrency 32` run at 16 per model).
    func concurrencyLine(_ plan: EvalPlan, _ document: HybridConfigDocument) -> String {
        let limits = perModelLimits(plan, document)
        let models = limits.keys.sorted().map { id -> String in
            let source: String
            if perModelConcurrency != nil {
                source = "--per-model-concurrency"
            } else if document.models[id]?.maxConcurrency != nil {
                source = "config maxConcurrency"
            } else {
                source = "default for \(document.models[id]?.kind.rawValue ?? "its kind")"
            }
            return "\(id) \(limits[id] ?? 1) (\(source))"
        }
        return "concurrency: \(concurrency) in flight overall (--concurrency); per model: " + models.joined(separator: ", ")
    }

    /// Each arm's model limit: `--per-model-concurrency` for all when given, else the model's `maxConcurrency`.
    func perModelLimits(_ plan: EvalPlan, _ document: HybridConfigDocument) -> [String: Int] {
        var limits: [String: Int] = [:]
        for arm in plan.arms {
            limits[arm.modelID] = perModelConcurrency ?? document.models[arm.modelID]?.effectiveMaxConcurrency ?? 1
        }
        return limits
    }

    /// With `--gate`, writes the run's report and exits 3 when a gate fails; otherwise says how to see the report.
    func gateOrSuggestReport(runID: String) async throws {
        guard let gate else {
            print("next: hybrid report \(runID)")
            return
        }
        let store = try await global.openStore()
        var report = try await ReportBuilder(options: ReportOptions()).build(store: store, runID: runID)
        let base = try baseline.map { path throws(ReportError) in try RunReport.load(path: path) }
        report.gates = GateEvaluator.evaluate(report: report, gates: try GateSpec.load(path: gate), baseline: base)
        try ReportCLI.write(report, out: nil)
        if let code = report.gates?.exitCode, code != 0 { throw ExitCode(code) }
    }

    static func scorers(_ names: [String]?, hasSchema: Bool) throws -> [any QualityScorer] {
        let chosen = names ?? (hasSchema ? ["field_match"] : ["token_f1", "rouge_l"])
        return try chosen.map { name in
            guard let scorer = StandardScorers.parse(name) else { throw CLIError(unknownScorer(name)) }
            return scorer
        }
    }

    /// Why a `--scorers` item is refused, with the valid choices.
    static func unknownScorer(_ item: String) -> String {
        "unknown scorer \"\(item)\" (choose from: \(StandardScorers.names.joined(separator: ", ")); "
            + "NAME>=X with X in 0...1 makes a scorer decide pass/fail)"
    }

    /// The scorers for `--help`, one line each.
    static let scorerHelp = StandardScorers.summaries.map { "  \($0.name): \($0.summary)" }.joined(separator: "\n")

    static func list(_ value: String) -> [String] {
        value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static func timestamp() -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date())
    }

    /// What a run needs to be rebuilt by `--resume`; stored as the run's arguments.
    struct Settings: Codable {
        var feature: String
        var dataset: String
        var models: [String]?
        var variants: [String]?
        var repeats: Int
        var limit: Int?
        var seed: UInt64
        var cache: Bool
        var skipInvalid: Bool
        var scorers: [String]?
        /// Where the config the run started with came from (a path, a URL, "bundled defaults"), to say so when a
        /// resume is refused; nil for runs stored before it was recorded.
        var config: String?
        /// `I/N` when this process runs one shard of the plan; nil for the whole plan.
        var shard: String?
        /// The `--label`s the config was resolved for; nil without any. A resume must give them again (the
        /// resolved config's hash is checked).
        var labels: [String: String]?
        /// The rubric judge's agreement with people, measured on `--judge-labels` before the run; every report of
        /// the run prints it.
        var judgeReliability: JudgeReliabilitySummary?

        init(
            feature: String, dataset: String, models: [String]?, variants: [String]?, repeats: Int, limit: Int?,
            seed: UInt64, cache: Bool, skipInvalid: Bool, scorers: [String]?
        ) {
            self.feature = feature
            self.dataset = dataset
            self.models = models
            self.variants = variants
            self.repeats = repeats
            self.limit = limit
            self.seed = seed
            self.cache = cache
            self.skipInvalid = skipInvalid
            self.scorers = scorers
        }

        /// These settings with whatever `command` sets explicitly, for a resume.
        func overridden(by command: EvalCommand) -> Settings {
            var settings = self
            if let feature = command.feature { settings.feature = feature }
            if let dataset = command.dataset { settings.dataset = dataset }
            if let models = command.models { settings.models = EvalCommand.list(models) }
            if let variants = command.variants { settings.variants = EvalCommand.list(variants) }
            if let repeats = command.repeats { settings.repeats = repeats }
            if let limit = command.limit { settings.limit = limit }
            if let seed = command.seed { settings.seed = seed }
            if let shard = command.shard { settings.shard = shard }
            return settings
        }

        init(_ json: JSONValue) throws {
            do {
                self = try JSONValueDecoder().decode(Settings.self, from: json)
            } catch {
                throw CLIError("the stored run has unreadable arguments (\(error)); start a new run")
            }
        }

        var json: JSONValue { (try? JSONValue(encoding: self)) ?? .object([:]) }
    }
}

extension Dictionary {
    /// nil when empty, so an empty dictionary is not stored.
    var nilIfEmpty: Self? { isEmpty ? nil : self }
}
