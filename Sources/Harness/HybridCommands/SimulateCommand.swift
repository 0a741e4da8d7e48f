import ArgumentParser
import Foundation
import HybridConfig
import HybridRecommend
import HybridRouter
import HybridRunner
import HybridStore

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

    @Option(help: ArgumentHelp(
        "Comma-separated error kinds that end the walk instead of falling back (default: the router's, "
            + RouterDefaults.stoppingKinds.map(\.rawValue).sorted().joined(separator: ",") + ")."))
    var stopOn: String?

    @Option(help: "Comma-separated hedge delays in ms (e.g. 300,600,1200): simulate the route unhedged and hedged after each delay, one line each.")
    var hedgeAfter: String?

    @Option(help: "With --hedge-after: a raced call expected to cost more than this many dollars is not started (the router's estimate when --config and the run's dataset are at hand, else the stored bill); what routing.hedge.maxExtraCostPerRequestUSD means.")
    var hedgeMaxCallCost: Double?

    @Flag(help: "Replay the run through the real Router and compare it with the simulation, case by case.")
    var checkRouter = false

    /// `--db` for the run, and `--config`: the config whose feature routing `--check-router` replays.
    @OptionGroup var global: GlobalOptions

    /// `--label`: replay as an install with these labels (the config's conditions pick its override).
    @OptionGroup var targeting: LabelOptions

    func validate() throws {
        if order == nil && !checkRouter { throw ValidationError("give --order (or --check-router to replay the config's order)") }
        if hedgeAfter != nil && checkRouter { throw ValidationError("--hedge-after simulates; with --check-router, set routing.hedge in the config") }
        _ = try hedgeDelays()
    }

    func run() async throws {
        try await CLIOutput.run {
            let store = try await global.openStore()
            if checkRouter {
                try await runRouterCheck(store: store)
                return
            }
            var simulator = try await RouteSimulator.load(from: store, run: run, feature: feature)
            if hedgeMaxCallCost != nil, let record = try await store.run(id: run) {
                let document = try await global.loadConfig(forRun: record, store: store).document
                print(await simulator.estimateCallCosts(for: record, document: document, labels: try targeting.labels(), installId: targeting.installId))
            }
            let policy = try policy(order: order ?? "")
            guard let delays = try hedgeDelays() else {
                print(try simulator.simulate(policy).render())
                return
            }
            var results = [try simulator.simulate(policy)]
            for delay in delays {
                var hedged = policy
                hedged.hedge = HedgeConfig(afterMs: delay, maxExtraCostPerRequestUSD: hedgeMaxCallCost)
                results.append(try simulator.simulate(hedged))
            }
            print(SimulationResult.hedgeTable(results))
        }
    }

    private func policy(order: String) throws -> ReplayPolicy {
        ReplayPolicy(
            order: Self.list(order), variant: variant, fallback: try FallbackCondition.parseList(fallbackOn),
            stopOn: stopOn.map { Set(Self.list($0)) })
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
        let check = RouterCheck(
            document: document, labels: try targeting.labels(), installId: targeting.installId,
            inputs: Self.caseInputs(of: record))
        let report = try await check.run(store: store, run: run, feature: feature)
        print("config: \(loaded.source)")
        for line in try targeting.target(document).lines { print(line) }
        print(report.render())
        if !report.allAgree || !report.hasEvidence { throw ExitCode.failure }
    }

    /// Each case's inputs from the run's dataset, when the file is still there with the content the run hashed;
    /// nil otherwise (the check then says its inputs were not replayed).
    static func caseInputs(of record: RunRecord) -> [String: [String: String]]? {
        guard FileManager.default.fileExists(atPath: record.datasetPath),
            let dataset = try? Dataset.load(path: record.datasetPath, skipInvalid: true),
            dataset.contentHash == record.datasetHash
        else { return nil }
        return Dictionary(dataset.cases.map { ($0.id, $0.input) }, uniquingKeysWith: { first, _ in first })
    }

    /// `--hedge-after` as milliseconds; nil when not given.
    private func hedgeDelays() throws -> [Int]? {
        guard let hedgeAfter else { return nil }
        let entries = Self.list(hedgeAfter)
        let delays = entries.compactMap { Int($0) }.filter { $0 > 0 }
        guard !entries.isEmpty, delays.count == entries.count else {
            throw ValidationError("--hedge-after takes whole milliseconds above 0, comma-separated (300,600,1200); found \(hedgeAfter)")
        }
        if let hedgeMaxCallCost, !(hedgeMaxCallCost.isFinite && hedgeMaxCallCost >= 0) {
            throw ValidationError("--hedge-max-call-cost must be 0 or more dollars; found \(hedgeMaxCallCost)")
        }
        return delays
    }

    private static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
