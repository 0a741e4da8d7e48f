public import HybridStore

/// A stored run of one feature reduced to a (case × arm) table of outcomes, read in one streaming pass.
///
/// Holds no output text, so a run of 100,000 results fits in a few megabytes; every simulated policy is then
/// replayed over the table in memory without reading the store again.
public struct RunOutcomeTable: Sendable {
    /// Id of the stored run the table was read from.
    public let runID: String
    /// The feature whose results the table holds.
    public let feature: String
    /// Every arm with at least one result, sorted by id.
    public let arms: [ArmDescriptor]
    /// Every scorer that scored at least one result, sorted by name.
    public let scorers: [String]
    /// Every (case, repeat), sorted.
    public let cases: [CaseKey]
    /// `outcomes[case][arm]`, indices into `cases` and `arms`.
    let outcomes: [[ArmOutcome?]]

    /// A table made in memory: `outcomes[case][arm]` in the order of `cases` and `arms` (sorted as a loaded table's).
    package init(runID: String, feature: String, arms: [ArmDescriptor], scorers: [String], cases: [CaseKey], outcomes: [[ArmOutcome?]]) {
        self.runID = runID
        self.feature = feature
        self.arms = arms
        self.scorers = scorers
        self.cases = cases
        self.outcomes = outcomes
    }

    /// Reads the results of `run` for `feature` (nil: the run's only feature) in one pass over the store.
    public static func load(from store: any ResultStore, run runID: String, feature: String? = nil) async throws(RecommendError) -> RunOutcomeTable {
        let record: RunRecord?
        do {
            record = try await store.run(id: runID)
        } catch {
            throw .store(error.description)
        }
        guard let record else { throw .runNotFound(runID: runID) }
        let chosen: String
        if let feature {
            guard record.features.isEmpty || record.features.contains(feature) else {
                throw .unknownFeature(runID: runID, feature: feature, known: record.features)
            }
            chosen = feature
        } else {
            guard record.features.count == 1 else { throw .ambiguousFeature(runID: runID, features: record.features) }
            chosen = record.features[0]
        }

        var builder = Builder()
        do {
            try await store.forEachMeasures(run: runID, batchSize: 2_000) { result in
                guard result.feature == chosen else { return }
                builder.add(result)
            }
        } catch let error as StoreError {
            throw .store(error.description)
        } catch {
            throw .store(String(describing: error))
        }
        guard !builder.caseIndex.isEmpty else { throw .noResults(runID: runID, feature: chosen) }
        return builder.table(runID: runID, feature: chosen)
    }

    /// Gathers rows as they stream in; indices are assigned in arrival order and sorted once at the end.
    private struct Builder {
        var caseIndex: [CaseKey: Int] = [:]
        var armIndex: [String: Int] = [:]
        var armList: [ArmDescriptor] = []
        var scorerIndex: [String: Int] = [:]
        var rows: [[ArmOutcome?]] = []

        mutating func add(_ result: ResultMeasures) {
            let key = CaseKey(caseID: result.key.caseID, repeatIndex: result.key.repeatIndex)
            let c: Int
            if let existing = caseIndex[key] {
                c = existing
            } else {
                c = rows.count
                caseIndex[key] = c
                rows.append([])
            }
            let a: Int
            if let existing = armIndex[result.key.armID] {
                a = existing
            } else {
                a = armList.count
                armIndex[result.key.armID] = a
                armList.append(ArmDescriptor(id: result.key.armID, variant: result.promptVariant, modelID: result.modelID, tier: result.tier))
            }
            let outcome = ArmOutcome(result) { name in
                if let index = scorerIndex[name] { return index }
                let index = scorerIndex.count
                scorerIndex[name] = index
                return index
            }
            if rows[c].count <= a { rows[c].append(contentsOf: repeatElement(nil, count: a + 1 - rows[c].count)) }
            rows[c][a] = outcome
        }

        func table(runID: String, feature: String) -> RunOutcomeTable {
            let arms = armList.sorted()
            let armOrder = arms.map { armIndex[$0.id]! }
            let scorers = scorerIndex.keys.sorted()
            let scorerOrder = scorers.map { scorerIndex[$0]! }
            let cases = caseIndex.keys.sorted()
            let outcomes = cases.map { key -> [ArmOutcome?] in
                let row = rows[caseIndex[key]!]
                return armOrder.map { old -> ArmOutcome? in
                    guard old < row.count, var outcome = row[old] else { return nil }
                    outcome.scores = scorerOrder.map { outcome.score($0) }
                    return outcome
                }
            }
            return RunOutcomeTable(runID: runID, feature: feature, arms: arms, scorers: scorers, cases: cases, outcomes: outcomes)
        }
    }

    /// Prompt variants present in the run, sorted.
    public var variants: [String] { Array(Set(arms.map(\.variant))).sorted() }

    /// Model ids present in the run, sorted.
    public var modelIDs: [String] { Array(Set(arms.map(\.modelID))).sorted() }

    func armIndex(of id: String) -> Int? { arms.firstIndex { $0.id == id } }
}
