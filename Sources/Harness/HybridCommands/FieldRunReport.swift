import ArgumentParser
import Foundation
import HybridConfig
import HybridRecommend
import HybridReport
import HybridStore

/// The report of a field run for `hybrid report` and `hybrid recommend`: the configured split comes from --config.
enum FieldRunReport {
    static func build(
        run: String, store: any ResultStore, fieldStore: any FieldEventStore, config: String?, db: String,
        control: String?, options: ReportOptions, segments: FieldSplit? = nil
    ) async throws -> RunReport {
        var document: HybridConfigDocument?
        if let config {
            document = try await GlobalOptions.parse(["--config", config, "--db", db]).loadConfig().document
        }
        return try await build(
            run: run, store: store, fieldStore: fieldStore, document: document, control: control, options: options,
            segments: segments)
    }

    /// The report with the split of `document` (none when nil: then no effect is reported).
    static func build(
        run: String, store: any ResultStore, fieldStore: any FieldEventStore, document: HybridConfigDocument?,
        control: String?, options: ReportOptions, segments: FieldSplit? = nil
    ) async throws -> RunReport {
        guard let record = try await store.run(id: run), let feature = record.features.first else {
            throw CLIError("field run \(run) has no run record")
        }
        var percentages: [String: Double] = [:]
        var control = control
        if let document {
            control = control ?? defaultControl(of: feature, in: document)
            if document.version != record.configVersion {
                CLIOutput.error(
                    "warning: the config is version \(document.version), the field run ran under v\(record.configVersion ?? -1); using its split")
            }
            percentages = split(of: feature, in: document)
        }
        var builder = FieldReportBuilder(
            percentages: percentages, control: control, options: options, minimumInstalls: segments?.minimumInstalls ?? 20,
            segmentLabel: segments?.by)
        let configured = document?.rollouts[feature]?.design
        builder.design = try segments.map { try $0.resolvedDesign(config: configured, feature: feature) }
            ?? FieldSplit.fieldDesign(config: configured, feature: feature)
        return try await builder.build(store: fieldStore, run: record, runID: run)
    }

    /// `hybrid recommend FIELD_RUN`: prints the decision, its figures and the diff; writes the config with --out.
    static func recommend(
        _ report: RunReport, document: HybridConfigDocument, source: String, policy: RecommendationPolicy, out: String?
    ) throws {
        guard let field = report.field else { throw CLIError("run \(report.runID) has no field events") }
        let recommendation = try FieldRecommender(policy: policy).recommend(
            document: document, analysis: field, runID: report.runID)
        print("recommendation from \(source) (version \(document.version)) and field run \(report.runID):")
        switch recommendation.action {
        case .promote(let arm): print("promote rollout arm \(arm) of \(field.feature) to 100 %")
        case .rollBack(let arm): print("roll back rollout arm \(arm) of \(field.feature) to 0 %")
        case .hold(let reason): print("no change: \(reason)")
        }
        for line in recommendation.evidence { print("  \(line)") }
        guard recommendation.changesRollout else { return }
        try propose(recommendation.document, diff: recommendation.diff, out: out)
    }

    /// The proposed config's diff, and the config itself in `out` when given.
    private static func propose(_ document: HybridConfigDocument, diff: String, out: String?) throws {
        print("")
        print("diff of the proposed config (version \(document.version)):")
        print(diff)
        if let out { try document.writeRecommended(to: out) }
    }

    /// `hybrid recommend FIELD_RUN --by LABEL`: per-segment overrides for segments missing the floors.
    static func recommendSegments(
        _ report: RunReport, document: HybridConfigDocument, source: String, policy: RecommendationPolicy, out: String?,
        fieldStore: any FieldEventStore
    ) async throws {
        guard let field = report.field else { throw CLIError("run \(report.runID) has no field events") }
        let events = try await fieldStore.events(run: report.runID)
        // The floor tests are sequential over the runs of every day: the looks kept so far make today's p a running
        // one, and today's look is kept for tomorrow's.
        let lookRun = FieldRecommender.floorLookRun(report.runID)
        let recommendation = try FieldRecommender(policy: policy).recommendSegments(
            document: document, analysis: field, runID: report.runID, events: events,
            history: try await fieldStore.looks(run: lookRun))
        if !recommendation.look.isEmpty {
            try await fieldStore.recordLook(
                FieldLook(runID: lookRun, events: events.count, recordedAt: Date(), entries: recommendation.look))
        }
        print("recommendation per \(field.segmentLabel ?? "segment") from \(source) (version \(document.version)) and field run \(report.runID):")
        for line in recommendation.evidence { print("  \(line)") }
        guard !recommendation.changes.isEmpty else {
            print("no change: every judged segment meets the floors")
            return
        }
        try propose(recommendation.document, diff: recommendation.diff, out: out)
    }

    /// `default` while installs outside every arm exist, else the rollout's first arm (the config's order).
    static func defaultControl(of feature: String, in document: HybridConfigDocument) -> String? {
        guard let rollout = document.rollouts[feature] else { return nil }
        return rollout.arms.reduce(0) { $0 + $1.percentage } < 100 ? "default" : rollout.arms.first?.name
    }

    /// Arm → percentage of the feature's rollout; a feature without a rollout is 100 % `default`.
    static func split(of feature: String, in document: HybridConfigDocument) -> [String: Double] {
        guard let rollout = document.rollouts[feature] else { return ["default": 100] }
        return Dictionary(rollout.arms.map { ($0.name, $0.percentage) }, uniquingKeysWith: +)
    }
}

/// `--by LABEL`, `--minimum-installs N` and the design flags (`--design planned --horizon-days N --looks K
/// --spending NAME`) of the field report.
struct FieldSplit: ParsableArguments {
    @Option(help: "Field runs: split the report by this event label (deviceClass, appVersion, os, …); each segment is judged on its own installs, Holm across segments.")
    var by: String?
    @Option(help: "Field runs: installs a group needs before its comparisons are judged (below it they are shown only).")
    var minimumInstalls = 20
    @Option(help: "Field runs: the design, overriding the config's rollouts.FEATURE.design: alwaysValid or planned (with --horizon-days or --horizon-installs and --looks).")
    var design: String?
    @Option(help: "Field runs, --design planned: the horizon in days from the run's first event.")
    var horizonDays: Double?
    @Option(help: "Field runs, --design planned: the horizon in installs (every arm together).")
    var horizonInstalls: Int?
    @Option(help: "Field runs, --design planned: looks equally spaced over the horizon, the last at it.")
    var looks: Int?
    @Option(help: "Field runs, --design planned: the alpha-spending function, obrienFleming (default) or pocock.")
    var spending: String?
    @Option(help: "Field runs, --design planned: the metric the experiment is for (adherence, fallbackRate, errorRate, latencyMeanMs, ttftMeanMs, costPer1000USD); it gets 0.8 of the planned α, the other metrics share the rest.")
    var primaryMetric: String?

    func validate() throws {
        try OptionChecks.atLeast(2, minimumInstalls, option: "--minimum-installs")
        try validateDesign()
    }
}
