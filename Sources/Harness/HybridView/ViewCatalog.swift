import HybridReport
import HybridStore

/// The viewer's read side: the store, plus what is expensive to derive and cheap to keep (a run's layout, its
/// report, its dataset cases, the flips between two runs). Each cached value is tied to the run's result count, so a run still being written
/// is re-read as it grows.
actor ViewCatalog {
    let store: SQLiteResultStore
    private var layouts: [String: RunLayout] = [:]
    private var reports: [String: (resultCount: Int, report: RunReport)] = [:]
    private var references: [String: CaseReferences] = [:]
    private var flipLists: [String: (resultCounts: [Int], flips: CaseFlips)] = [:]

    init(store: SQLiteResultStore) {
        self.store = store
    }

    /// The run, or a 404 naming it.
    func run(_ id: String?) async throws -> RunRecord {
        guard let id else { throw ViewError.badRequest("which run? add ?run=RUN_ID") }
        guard let run = try await store.run(id: id) else {
            throw ViewError.notFound("no run \(id) in \(store.database.path)")
        }
        return run
    }

    /// The run's features and arms; re-read when results were added since.
    func layout(of runID: String) async throws -> RunLayout {
        let count = try await store.resultCount(run: runID)
        if let cached = layouts[runID], cached.resultCount == count { return cached }
        let arms = try await store.armCounts(run: runID)
        var features: [RunLayout.Feature] = []
        let names = Array(Set(arms.map(\.feature))).sorted()
        for name in names {
            let constraints = try await store.constraintNames(run: runID, feature: name)
            let cases = try await store.caseCount(run: runID, matching: CaseFilter(feature: RunLayout.scope(name, of: names)))
            features.append(RunLayout.Feature(
                name: name, arms: arms.filter { $0.feature == name }, constraintNames: constraints, caseCount: cases))
        }
        let layout = RunLayout(resultCount: count, features: features)
        layouts[runID] = layout
        return layout
    }

    /// The run's report, built with `hybrid report`'s defaults; rebuilt when results were added since.
    func report(of runID: String) async throws -> RunReport {
        let count = try await store.resultCount(run: runID)
        if let cached = reports[runID], cached.resultCount == count { return cached.report }
        let report = try await ReportBuilder().build(store: store, runID: runID)
        reports[runID] = (count, report)
        return report
    }

    /// The dataset cases of the run (read once: the file is checked against the run's hash).
    func references(of run: RunRecord) -> CaseReferences {
        if let cached = references[run.id] { return cached }
        let loaded = CaseReferences.load(for: run)
        references[run.id] = loaded
        return loaded
    }

    /// The cases that flipped from `baseline` to `candidate` (HybridReport's `CaseFlips`, as `hybrid compare`
    /// reports them), listing `limit` per arm and direction with whole outputs; recomputed when either run grew.
    func flips(from baseline: String, to candidate: String, limit: Int) async throws -> CaseFlips {
        let counts = [try await store.resultCount(run: baseline), try await store.resultCount(run: candidate)]
        let key = "\(baseline)\u{0}\(candidate)"
        if let cached = flipLists[key], cached.resultCounts == counts { return cached.flips }
        let flips = try await CaseFlips.find(
            store: store, baselineRunID: baseline, candidateRunID: candidate, limit: limit, textLimit: nil)
        flipLists[key] = (counts, flips)
        return flips
    }
}
