import ArgumentParser
import Foundation
import HybridConfig
import HybridRecommend
import HybridStore
import HybridCurl
import HybridTransport
import HybridReport

/// `hybrid simulate RUN`: replays a routing policy over a stored run; no model is called.
struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Replay a routing policy over a stored run: quality, adherence, latency, cost, who served.",
        discussion: """
            Every case of the run ran on every arm, so the outcome of any order is already known: for each case \
            the first arm whose stored result passes the fallback conditions serves it, and every attempt made on \
            the way is charged. `error` is always a fallback condition; add `adherence` (any check failed), \
            `schema`, `constraints`, `check:max_words`, `timeout:2s` (charged 2 s, serves nothing) or \
            `quality:SCORER>=0.5`. Error kinds in --stop-on end the walk, as the router does. Example:
              hybrid simulate RUN --order local-smollm2,gemini-flash --fallback-on adherence,timeout:2s
            With --check-router the run is replayed through the real Router (replay models on a virtual clock) \
            using the feature's priority, default variant and routing block from --config (or --order and \
            --fallback-on written over them), and the router's choice is compared with the simulator's per case.
            """)

    @Argument(help: "The eval run id (as printed by `hybrid eval`).")
    var run: String

    @Option(help: "Comma-separated model ids (or variant@model arm ids), best first; with --check-router, the config's priority when omitted.")
    var order: String?

    @Option(help: "Prompt variant for bare model ids (default: the run's only variant).")
    var variant: String?

    @Option(help: "Feature of the run (default: its only feature).")
    var feature: String?

    @Option(help: "Comma-separated fallback conditions: adherence, schema, constraints, check:NAME, timeout:2s, quality:SCORER>=X (error is always on).")
    var fallbackOn: String = "error"

    @Option(help: "Comma-separated error kinds that end the walk instead of falling back (the router's default: refusal).")
    var stopOn: String = "refusal"

    @Flag(help: "Replay the run through the real Router and compare it with the simulation, case by case.")
    var checkRouter = false

    /// `--db` for the run, and `--config`: the config whose feature routing `--check-router` replays.
    @OptionGroup var global: GlobalOptions

    /// `--label`: replay as an install with these labels (the config's conditions pick its override).
    @OptionGroup var targeting: LabelOptions

    func validate() throws {
        if order == nil && !checkRouter { throw ValidationError("give --order (or --check-router to replay the config's order)") }
    }

    func run() async throws {
        try await CLIOutput.run {
            let store = try await global.openStore()
            if checkRouter {
                try await runRouterCheck(store: store)
                return
            }
            let simulator = try await RouteSimulator.load(from: store, run: run, feature: feature)
            print(try simulator.simulate(try policy(order: order ?? "")).render())
        }
    }

    private func policy(order: String) throws -> RoutePolicy {
        RoutePolicy(
            order: Self.list(order), variant: variant, fallback: try FallbackCondition.parseList(fallbackOn),
            stopOn: Set(Self.list(stopOn)))
    }

    private func runRouterCheck(store: any ResultStore) async throws {
        guard let record = try await store.run(id: run) else {
            throw CLIError("no run \(run) in \(global.database.shown); `hybrid report` lists runs")
        }
        let loaded = try await global.loadConfig(forRun: record, store: store)
        var document = loaded.document
        if let order {
            let table = try await RunOutcomeTable.load(from: store, run: run, feature: feature)
            document = try RouterCheck.applying(try policy(order: order), feature: table.feature, to: document)
        }
        let check = RouterCheck(document: document, labels: try targeting.labels(), installId: targeting.installId)
        let report = try await check.run(store: store, run: run, feature: feature)
        print("config: \(loaded.source)")
        for line in try targeting.target(document).lines { print(line) }
        print(report.render())
        if !report.allAgree { throw ExitCode.failure }
    }

    private static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

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
            let fieldStore = try SQLiteFieldEventStore(path: global.db)
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
                    try FieldRunReport.recommendSegments(report, document: document, source: source, policy: floors, out: out)
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

/// `hybrid config publish FILE --to URL`: a conditional upload of a validated config.
struct PublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Validate a config and upload it where apps fetch it (HTTP PUT with If-Match, or file://).",
        discussion: """
            The upload is conditional on the ETag last seen for the destination (--if-match, else the latest one \
            recorded in the database by an earlier publish or fetch); with none known it only creates. When the \
            destination changed meanwhile it is refused: fetch, review the diff, publish again. The version must \
            be above the one published there. With --key the exact bytes are signed (X-Hybrid-Signature header and \
            URL.sig; FILE.sig beside a file).
            """)

    @Argument(help: "The config file to publish, byte for byte.")
    var file: String

    @OptionGroup var target: PublishTarget

    func run() async throws {
        try await CLIOutput.run {
            guard let body = FileManager.default.contents(atPath: file) else {
                throw CLIError("cannot read \(file)")
            }
            let resolver = PromptFileResolver(directories: [URL(fileURLWithPath: file).deletingLastPathComponent()])
            let outcome = try await target.publisher().publish(body, to: target.destination, options: target.options(promptFiles: resolver))
            target.report(outcome)
        }
    }
}

/// `hybrid config rollback VERSION --to URL`: republishes an earlier version as the next version.
struct RollbackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rollback",
        abstract: "Republish an earlier published version (from the snapshot history) as a new, higher version.",
        discussion: """
            Apps refuse configs whose version is lower than the one they use, so a rollback does not go back in \
            version: it takes the content of VERSION from the database's snapshot history and publishes it as \
            (highest recorded version + 1), conditional on the latest recorded ETag like `config publish`.
            """)

    @Argument(help: "The version to bring back.")
    var version: Int

    @OptionGroup var target: PublishTarget

    func run() async throws {
        try await CLIOutput.run {
            let outcome = try await target.publisher().rollback(
                to: version, destination: target.destination, options: target.options(promptFiles: .bundled))
            target.report(outcome)
        }
    }
}

/// Where and how `config publish` and `config rollback` upload: the destination, the ETag condition, signing.
struct PublishTarget: ParsableArguments {
    @Option(help: "Destination: https://…, http://127.0.0.1…, or file:///path.")
    var to: String

    @Option(help: "The ETag the upload is based on (from `hybrid config fetch`); the latest recorded one when omitted; `*` overwrites whatever is there.")
    var ifMatch: String?

    @Option(help: "Ed25519 private key file (from `hybrid config keygen`) to sign with.")
    var key: String?

    @Flag(help: "Validate and show what would be sent; upload nothing.")
    var dryRun = false

    @OptionGroup var database: DatabaseOption

    /// A bare path becomes an absolute `file://` URL, so the snapshot history is keyed the same way every time.
    var destination: String {
        to.contains("://") ? to : URL(fileURLWithPath: to).absoluteURL.absoluteString
    }

    func publisher() async throws -> ConfigPublisher {
        ConfigPublisher(transport: CurlTransport.shared, snapshots: try await StoreLocation.snapshots(database.db))
    }

    func options(promptFiles: PromptFileResolver) throws -> ConfigPublisher.Options {
        ConfigPublisher.Options(
            ifMatch: ifMatch, dryRun: dryRun,
            signer: try key.map { path throws(ConfigError) in try ConfigSigner(privateKeyFile: path) },
            promptFiles: promptFiles)
    }

    func report(_ outcome: PublishOutcome) {
        print(outcome.description)
        for warning in outcome.warnings { CLIOutput.error("warning: \(warning)") }
    }
}

extension HybridConfigDocument {
    /// Writes a recommended config to `path` (creating its folder) and tells the user how to publish it; shared by
    /// `hybrid recommend` on eval runs and on field runs.
    func writeRecommended(to path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try encodedJSON().write(to: url, options: .atomic)
        print("")
        print("wrote \(path); publish it with `hybrid config publish \(path) --to URL`")
    }
}
