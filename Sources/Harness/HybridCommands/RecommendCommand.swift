import ArgumentParser
import Foundation
import HybridConfig
import HybridConfigTools
import HybridCore
import HybridRecommend
import HybridStore
import HybridReport
import HybridRunner

/// `hybrid recommend RUN…`: the cheapest route meeting a policy's floors, as the next config version and its diff.
struct RecommendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recommend",
        abstract: "Pick the cheapest priority order and prompt variant meeting the policy's floors; print the config diff.",
        discussion: """
            Simulates every order of up to three of the run's models (and each variant) over the stored results \
            and keeps the route in force unless a candidate meeting every floor of the policy is shown, against \
            the current route and on the dataset's cases, better (quality or adherence, as good on the other) or \
            as good and cheaper or faster (one-sided paired sign-flip tests, Holm over every claim of every \
            candidate). Otherwise it says which claim came closest and how many cases would show it. Without \
            --policy: adherence Wilson lower bound ≥ 0.7; a cheaper or faster route may lose at most 0.05 of the \
            run's first scorer and 5 points of adherence; p95 within the feature's deadlineMs; the feature's \
            privacy class; fallback on errors only. The proposed config is the config in force (--config) with \
            version + 1 and each feature's `routing` block set to what was simulated (fallbackOn conditions other \
            than quality:…, which no router can evaluate and is refused); write it with --out and publish it with \
            `hybrid config publish`. A field run (`FIELD_RUN`) is judged on installs: promote, roll back or hold; \
            with --by LABEL, per-segment overrides on always-valid tests that run over the days' looks.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Eval run ids, one per feature.")
    var runs: [String]

    @Option(help: "Policy JSON file (floors per feature); the built-in policy when omitted.")
    var policy: String?

    @Option(help: "Write the proposed config here.")
    var out: String?

    @Option(
        help: "What a repeated case's checks reduce to before the adherence floor: mean (pass share), all (pass^k), any (pass@k).",
        transform: ReportCLI.reducer)
    var reducer: RepeatReducer = .mean

    @Option(help: "Propose a hedge delay (routing.hedge): `auto` (a grid from the first model's stored p50 to its p99, about 10 % apart) or comma-separated ms (300,600,1200).")
    var hedgeAfter: String?

    @Option(help: "With --hedge-after: most dollars a delay may add to the mean cost per request over the run (the search's cap, not written; default the share cap × the all-cloud cost per request).")
    var hedgeMaxMeanExtraCost: Double?

    @Option(help: "With --hedge-after: most dollars one raced call may cost by the router's estimate (written as routing.hedge.maxExtraCostPerRequestUSD; default none).")
    var hedgeMaxCallCost: Double?

    @Option(help: "With --hedge-after: largest share of requests (0–1] a hedge may race (default 0.15; written as routing.hedge.maxHedgedShare).")
    var hedgeMaxShare: Double?

    @Option(help: "A `hybrid judge-check --out` file: needed when a policy's quality floor uses the judge's scores, which count only from a judge shown reliable.")
    var judgeCheck: String?

    @OptionGroup var split: FieldSplit

    @Flag(help: "Learn one input rule (a threshold on one measured request feature, or two) from a run in which the route's models answered the same cases; every figure cross-fitted, proposed only when as good as the current route and cheaper, or better at no more cost.")
    var byInput = false

    func validate() throws {
        if runs.isEmpty { throw ValidationError("give at least one run id") }
        if byInput && runs.count != 1 { throw ValidationError("--by-input learns from one run; found \(runs.count)") }
        if byInput && (hedgeAfter != nil || split.by != nil) { throw ValidationError("--by-input takes neither --hedge-after nor --by") }
        _ = try hedgeSearch()
    }

    /// The hedge options as a search; nil without --hedge-after.
    private func hedgeSearch() throws -> HedgeSearch? {
        guard let hedgeAfter else {
            if hedgeMaxMeanExtraCost != nil || hedgeMaxCallCost != nil || hedgeMaxShare != nil {
                throw ValidationError("--hedge-max-mean-extra-cost, --hedge-max-call-cost and --hedge-max-share need --hedge-after")
            }
            return nil
        }
        var delays: [Int]?
        if hedgeAfter != "auto" {
            let entries = hedgeAfter.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let parsed = entries.compactMap { Int($0) }.filter { $0 > 0 }
            guard !entries.isEmpty, parsed.count == entries.count else {
                throw ValidationError("--hedge-after takes `auto` or whole milliseconds above 0, comma-separated (300,600,1200); found \(hedgeAfter)")
            }
            delays = parsed
        }
        for (name, cost) in [("--hedge-max-mean-extra-cost", hedgeMaxMeanExtraCost), ("--hedge-max-call-cost", hedgeMaxCallCost)] {
            if let cost, !(cost.isFinite && cost >= 0) { throw ValidationError("\(name) must be 0 or more dollars; found \(cost)") }
        }
        if let share = hedgeMaxShare, !(share.isFinite && share > 0 && share <= 1) { throw ValidationError("--hedge-max-share must be more than 0 and at most 1; found \(share)") }
        return HedgeSearch(
            delaysMs: delays, maxExtraCostPerRequestUSD: hedgeMaxCallCost, maxMeanExtraCostUSD: hedgeMaxMeanExtraCost,
            maxHedgedShare: hedgeMaxShare)
    }

    func run() async throws {
        try await CLIOutput.run {
            let floors = try policy.map { path throws(RecommendError) in try RecommendationPolicy.load(path: path) } ?? .standard
            let store = try await global.openStore()
            let fieldStore = try await global.store.fieldEvents()
            let isField = try await fieldStore.isFieldRun(runs[0])
            // An offline run is judged under the config it ran with unless --config says otherwise.
            let record = isField ? nil : try await store.run(id: runs[0])
            let (document, _, source) = if let record {
                try await global.loadConfig(forRun: record, store: store)
            } else {
                try await global.loadConfig()
            }
            if byInput, let record {
                try await Self.recommendByInput(
                    record: record, document: document, source: source, store: store, policy: floors, out: out)
                return
            }
            if runs.count == 1, isField {
                if hedgeAfter != nil || byInput {
                    throw CLIError(
                        "\(runs[0]) is a field run: --hedge-after and --by-input simulate routes over an eval run's stored answers; recommend them from an eval run (`hybrid eval`), then roll the result out")
                }
                let report = try await FieldRunReport.build(
                    run: runs[0], store: store, fieldStore: fieldStore, document: document, control: nil,
                    options: ReportOptions(), segments: split)
                if split.by != nil {
                    try await FieldRunReport.recommendSegments(
                        report, document: document, source: source, policy: floors, out: out, fieldStore: fieldStore)
                } else {
                    try FieldRunReport.recommend(report, document: document, source: source, policy: floors, out: out)
                }
                return
            }
            try await Self.requireReliableJudge(policy: floors, runs: runs, store: store, check: judgeCheck)
            let hedge = try hedgeSearch()
            var simulators: [RouteSimulator] = []
            for run in runs {
                var simulator = try await RouteSimulator.load(from: store, run: run)
                // A per-call cap is judged on the router's estimate, as the router will judge the written cap.
                if hedge?.maxExtraCostPerRequestUSD != nil, let record = try await store.run(id: run) {
                    print(await simulator.estimateCallCosts(for: record, document: document))
                }
                simulators.append(simulator)
            }
            var recommender = Recommender(policy: floors, reducer: reducer)
            recommender.hedge = hedge
            let recommendation = try recommender.recommend(document: document, simulators: simulators)
            print("recommendation from \(source) (version \(document.version)) and run \(runs.joined(separator: ", ")):")
            print(recommendation.renderSummary())
            print("")
            print("diff of the proposed config (version \(recommendation.document.version)):")
            if !recommendation.changesRouting {
                print("(no change of order or variant: publishing it would record this evaluation's provenance and the routing block it was simulated with)")
            }
            print(recommendation.diff)
            if let out { try recommendation.document.writeRecommended(to: out) }
        }
    }

    /// A quality floor on the judge's scores is only as good as the judge: refused unless `--judge-check` shows the
    /// judge that scored these runs reliable against people.
    static func requireReliableJudge(policy: RecommendationPolicy, runs: [String], store: any ResultStore, check: String?) async throws {
        let floors = [policy.defaults.maxQualityDrop] + policy.features.values.map(\.maxQualityDrop)
        guard floors.contains(where: { $0?.scorer.map(LLMJudge.isJudgeScore) ?? false }) else { return }
        var judges: Set<String> = []
        for run in runs {
            for result in try await store.results(run: run) {
                for score in result.scores where LLMJudge.isJudgeScore(score.scorer) {
                    if let detail = score.detail, let data = detail.data(using: .utf8),
                        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let judge = object["judge_model"] as? String
                    {
                        judges.insert(judge)
                    }
                }
            }
        }
        let named = judges.sorted().joined(separator: ", ")
        // Without a check file, the figures measured when the runs started (--judge-labels); the weakest decides.
        var stored: [JudgeReliabilitySummary] = []
        for run in runs {
            if let record = try await store.run(id: run), let summary = JudgeReliabilitySummary(storedIn: record) { stored.append(summary) }
        }
        let source = check ?? "the figures measured with --judge-labels when the runs started"
        let threshold = policy.judgeMinimumKappa
        func meets(_ summary: JudgeReliabilitySummary) -> Bool { summary.scored >= 10 && (summary.kappaLower ?? -1) >= threshold }
        guard let result = try check.map(LabelFile.judgeCheck) ?? stored.first(where: { !meets($0) }) ?? stored.first else {
            throw CLIError("the policy's quality floor uses the judge's scores (\(named.isEmpty ? "no judge scored these runs" : "judge \(named)")), but the judge's agreement with people is unmeasured: give the runs --judge-labels FILE, or run `hybrid judge-check --judge MODEL --labels FILE --out CHECK.json` and pass --judge-check CHECK.json")
        }
        guard let judge = result.judge else { throw CLIError("\(source) measured no judge") }
        guard judges == [judge] else {
            throw CLIError("\(source) measured judge \(judge), but these runs were scored by \(named.isEmpty ? "no judge" : named)")
        }
        guard meets(result) else {
            let kappa = result.kappaLower.map { String(format: "kappa's lower bound %.2f", $0) } ?? "kappa undefined"
            throw CLIError("judge \(judge) is not reliable enough for a quality floor: \(kappa) on \(result.scored) of \(result.answers) scored answers (\(result.labels ?? source)); the policy's judgeMinimumKappa \(String(format: "%.2f", threshold)) and 10 answers needed")
        }
        print("judge \(judge): reliable against people (\(source): kappa's lower bound \(String(format: "%.2f", result.kappaLower ?? 0)) ≥ the policy's \(String(format: "%.2f", threshold))); its scores may set the quality floor")
    }
}

extension RecommendCommand {
    /// `--by-input`: the run's cases measured as the router measures requests (`FeatureConfig.inputFeatures`, the
    /// feature's default variant on each case's input), then `InputRuleLearner`; `--out` writes the proposed config
    /// after validating it. Nothing stored is changed.
    static func recommendByInput(
        record: RunRecord, document: HybridConfigDocument, source: String, store: any ResultStore,
        policy: RecommendationPolicy, out: String?
    ) async throws {
        let table = try await RunOutcomeTable.load(from: store, run: record.id)
        guard let config = document.features[table.feature] else { throw RecommendError.featureNotInConfig(feature: table.feature) }
        let features = try measuredFeatures(datasetPath: record.datasetPath, feature: table.feature, config: config)
        let recommendation = try InputRuleLearner(policy: policy).learn(table: table, document: document, features: features)
        print("input rules learned from run \(record.id), against \(source):")
        print(recommendation.render())
        guard let proposed = recommendation.document else { return }
        print("")
        print("diff of the proposed config (version \(proposed.version)):")
        print(ConfigDiff.render(from: document, to: proposed))
        if let out {
            do {
                _ = try ConfigValidator.load(proposed.encodedJSON(), promptFiles: .bundled)
            } catch {
                throw CLIError("the proposed config for \(table.feature) (run \(record.id)) does not validate: \(error)")
            }
            try proposed.writeRecommended(to: out)
        }
    }

    /// Per case id, the features of the request the feature's default variant renders for its input; conversation
    /// cases and inputs the template cannot render are left out (the learner names them).
    static func measuredFeatures(datasetPath: String, feature: String, config: FeatureConfig) throws -> [String: InputFeatures] {
        let dataset: Dataset
        do {
            dataset = try Dataset.load(path: datasetPath, skipInvalid: true)
        } catch {
            throw CLIError("--by-input measures each case's input from the run's dataset \(datasetPath), which cannot be read: \(error)")
        }
        var features: [String: InputFeatures] = [:]
        for item in dataset.cases where !item.hasOwnMessages {
            features[item.id] = try? config.inputFeatures(name: feature, input: item.input)
        }
        return features
    }
}
