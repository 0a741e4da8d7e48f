import ArgumentParser
import Foundation
import HybridConfig
import HybridRecommend
import HybridStore
import HybridReport

/// `hybrid recommend RUN…`: the cheapest route meeting a policy's floors, as the next config version and its diff.
struct RecommendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recommend",
        abstract: "Pick the cheapest priority order and prompt variant meeting the policy's floors; print the config diff.",
        discussion: """
            Simulates every order of up to three of the run's models (and each variant) over the stored results, \
            keeps those meeting every floor of the policy and picks the cheapest. Without --policy: adherence \
            Wilson lower bound ≥ 0.7, quality drop against the best single arm ≤ 0.05 (upper bound of the paired \
            95% interval, the run's first scorer), p95 within the feature's deadlineMs, the feature's privacy \
            class, fallback on errors only. The proposed config is the config in force (--config) with version + 1 and \
            each feature's `routing` block set to what was simulated (fallbackOn conditions other than quality:…, \
            which no router can evaluate and is refused); write it with --out and publish it with `hybrid config publish`.
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

    @OptionGroup var split: FieldSplit

    func validate() throws {
        if runs.isEmpty { throw ValidationError("give at least one run id") }
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
            if runs.count == 1, isField {
                let report = try await FieldRunReport.build(
                    run: runs[0], store: store, fieldStore: fieldStore, document: document, control: nil,
                    options: ReportOptions(), segments: split)
                if split.by != nil {
                    try FieldRunReport.recommendSegments(
                        report, document: document, source: source, policy: floors, out: out,
                        events: try await fieldStore.events(run: runs[0]))
                } else {
                    try FieldRunReport.recommend(report, document: document, source: source, policy: floors, out: out)
                }
                return
            }
            var simulators: [RouteSimulator] = []
            for run in runs {
                simulators.append(try await RouteSimulator.load(from: store, run: run))
            }
            let recommendation = try Recommender(policy: floors, reducer: reducer).recommend(document: document, simulators: simulators)
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
}
