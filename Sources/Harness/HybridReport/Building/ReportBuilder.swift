import HybridCore
public import HybridStore
import Foundation

/// Turns a stored run into a ``RunReport`` in one streaming pass over the results' measures (no texts).
///
/// Memory is bounded by the per-arm, per-case numeric arrays (tens of bytes per result), never by whole records,
/// so a million-result run fits in a few hundred megabytes. Comparisons pair arms on the same (case id, repeat);
/// a pair where either side has no value for the metric is dropped from both sides, and errors count as
/// adherence failures. Without named pairs, the best arm (highest adherence, then primary quality, then lower
/// median latency) is compared with each other arm. All p-values of the report are Holm-adjusted together.
///
/// The per-case side by side of each compared pair and each arm's worst cases are chosen from the numbers; then only
/// the listed cases are read again, by key, for their texts.
public struct ReportBuilder: Sendable {
    /// The options every report of this builder uses.
    public let options: ReportOptions

    /// A builder with `options`.
    public init(options: ReportOptions = ReportOptions()) {
        self.options = options
    }

    /// Streams the run's results from `store` and builds the report. Throws ``ReportError/runNotFound(_:)`` when
    /// the store has neither the run nor any result of it; store failures pass through as `StoreError`.
    public func build(store: any ResultStore, runID: String) async throws -> RunReport {
        let run = try await store.run(id: runID)
        var accumulator = ReportAccumulator(options: options)
        try await store.forEachMeasureColumns(run: runID, batchSize: 4_000) { columns in
            accumulator.add(columns)
        }
        guard run != nil || accumulator.resultCount > 0 else { throw ReportError.runNotFound(runID) }
        var filler = CaseDetailFiller(report: accumulator.finish(runID: runID, run: run), textLimit: options.textLimit)
        if !filler.isEmpty {
            for record in try await store.results(keys: filler.keys) { filler.add(record) }
        }
        var report = filler.filled
        let verdicts = try await store.pairwiseVerdicts(run: runID)
        if !verdicts.isEmpty { report.pairwise = PairwiseSummary.all(from: verdicts) }
        report.judgeReliability = Self.judgeReliability(of: report, run: run)
        return report
    }

    /// For a run a rubric judge scored: the agreement with people measured when it ran (`--judge-labels`, kept in
    /// its arguments), else "unmeasured"; nil when no judge scored it.
    static func judgeReliability(of report: RunReport, run: RunRecord?) -> JudgeReliabilitySummary? {
        guard report.features.contains(where: { $0.scorers.contains("judge") }) else { return nil }
        return run.flatMap(JudgeReliabilitySummary.init(storedIn:)) ?? .unmeasured
    }

    /// Builds the report from results already in memory (tests, small runs).
    public func build(runID: String, run: RunRecord?, results: some Collection<ResultRecord>) -> RunReport {
        var accumulator = ReportAccumulator(options: options)
        var columns = MeasureColumns(runID: runID)
        for record in results {
            columns.append(ResultMeasures(record))
            if columns.count == 2_000 {
                accumulator.add(columns)
                columns = MeasureColumns(runID: runID)
            }
        }
        accumulator.add(columns)
        var filler = CaseDetailFiller(report: accumulator.finish(runID: runID, run: run), textLimit: options.textLimit)
        if !filler.isEmpty {
            for record in results { filler.add(record) }
        }
        return filler.filled
    }
}

/// The whole run while streaming: one ``FeatureAccumulator`` per feature.
struct ReportAccumulator {
    let options: ReportOptions
    private var features: [FeatureAccumulator] = []
    private var positions = PositionCache()
    private(set) var resultCount = 0
    /// Numbers the pages, so accumulators know when the text codes they keep per page go stale.
    private var pageNumber = 0

    init(options: ReportOptions) {
        self.options = options
    }

    mutating func add(_ columns: MeasureColumns) {
        resultCount += columns.count
        pageNumber += 1
        var featureSlots = [Int](repeating: -1, count: columns.texts.count)
        for row in 0..<columns.count {
            let code = Int(columns.featureCodes[row])
            if featureSlots[code] < 0 {
                let name = columns.texts[code]
                featureSlots[code] = positions.position(of: name) {
                    features.append(FeatureAccumulator(feature: name))
                    return features.count - 1
                }
            }
            features[featureSlots[code]].add(columns, row: row, pageNumber: pageNumber, options: options)
        }
    }

    /// The report; each feature's streaming state is dropped once its section is built.
    mutating func finish(runID: String, run: RunRecord?) -> RunReport {
        var sections: [FeatureReport] = []
        var pending: [PendingComparison] = []
        for (name, position) in positions.all.sorted(by: { $0.key < $1.key }) {
            let (section, comparisons) = features[position].finish(options: options)
            features[position] = FeatureAccumulator(feature: name)
            sections.append(section)
            pending += comparisons
        }
        let judged = ComparisonCalculator.finalize(pending, options: options)
        for index in sections.indices {
            sections[index].comparisons = judged.filter { $0.feature == sections[index].feature }
        }
        return RunReport(runID: runID, run: run.map(RunInfo.init), settings: options.settings, features: sections)
    }
}

extension RunInfo {
    /// The report's view of a stored run record.
    public init(_ run: RunRecord) {
        self.init(
            status: run.status.rawValue,
            startedAt: Self.timestamp(run.startedAt),
            finishedAt: run.finishedAt.map(Self.timestamp),
            datasetPath: run.datasetPath,
            datasetHash: run.datasetHash,
            configVersion: run.configVersion,
            configHash: run.configHash,
            plannedCount: run.plannedCount,
            skippedInvalidLines: run.skippedInvalidLines,
            rescoredFrom: run.arguments.objectValue?["rescore"]?.objectValue?["sourceRun"]?.stringValue,
            rescoreChanges: run.arguments.objectValue?["rescore"]?.objectValue?["changes"]?.arrayValue?.compactMap(\.stringValue),
            labels: run.arguments.objectValue?["labels"]?.objectValue?.compactMapValues(\.stringValue)
        )
    }

    private static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
