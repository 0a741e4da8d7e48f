public import HybridStore

extension CaseFlips {
    /// Flipped cases listed per arm and direction unless the caller says otherwise.
    public static let defaultLimit = 10

    /// The flips from `baselineRunID` to `candidateRunID`, streamed from `store` in two passes (baseline
    /// outcomes, then candidate flips) and a lookup by key of the listed cases' baseline results, so memory holds
    /// one bit per baseline result plus the listed cases, never whole runs.
    ///
    /// - Parameters:
    ///   - limit: cases listed per arm and direction (the counts still cover every flip); nil lists all.
    ///   - textLimit: inputs and outputs are cut to this many characters; nil keeps them whole.
    /// - Throws: ``ReportError/runNotFound(_:)`` when the store has neither the run nor any result of it; store
    ///   failures pass through as `StoreError`.
    public static func find(
        store: any ResultStore, baselineRunID: String, candidateRunID: String, limit: Int? = defaultLimit,
        textLimit: Int? = 1_000
    ) async throws -> CaseFlips {
        for id in [baselineRunID, candidateRunID] {
            if try await store.run(id: id) == nil, try await store.resultCount(run: id) == 0 {
                throw ReportError.runNotFound(id)
            }
        }
        var finder = CaseFlipFinder(limit: limit, textLimit: textLimit)
        try await store.forEachMeasures(run: baselineRunID, batchSize: 2_000) { finder.addBaseline($0) }
        try await store.forEachResult(run: candidateRunID, batchSize: 2_000) { finder.considerCandidate($0) }
        if finder.needsBaselineDetails {
            for record in try await store.results(keys: finder.listedKeys(runID: baselineRunID)) { finder.fillBaseline(record) }
        }
        return finder.finish(baselineRunID: baselineRunID, candidateRunID: candidateRunID)
    }

    /// The flips from a baseline `report.json` (a committed baseline) to a stored run. The baseline side has only
    /// its per-case pass/fail (``FeatureReport/caseKeys`` and ``ArmSummary/cases``), no texts; a baseline written
    /// without per-case data yields no flips.
    public static func find(
        store: any ResultStore, baseline: RunReport, candidateRunID: String, limit: Int? = defaultLimit,
        textLimit: Int? = 1_000
    ) async throws -> CaseFlips {
        if try await store.run(id: candidateRunID) == nil, try await store.resultCount(run: candidateRunID) == 0 {
            throw ReportError.runNotFound(candidateRunID)
        }
        var finder = CaseFlipFinder(limit: limit, textLimit: textLimit)
        finder.addBaseline(baseline)
        try await store.forEachResult(run: candidateRunID, batchSize: 2_000) { finder.considerCandidate($0) }
        return finder.finish(baselineRunID: baseline.runID, candidateRunID: candidateRunID)
    }

    /// The flips between two runs whose results are in memory (tests, small runs); see
    /// ``find(store:baselineRunID:candidateRunID:limit:textLimit:)``.
    public static func find(
        baselineRunID: String, baseline: some Collection<ResultRecord>, candidateRunID: String,
        candidate: some Collection<ResultRecord>, limit: Int? = defaultLimit, textLimit: Int? = 1_000
    ) -> CaseFlips {
        var finder = CaseFlipFinder(limit: limit, textLimit: textLimit)
        baseline.forEach { finder.addBaseline(ResultMeasures($0)) }
        candidate.forEach { finder.considerCandidate($0) }
        if finder.needsBaselineDetails { baseline.forEach { finder.fillBaseline($0) } }
        return finder.finish(baselineRunID: baselineRunID, candidateRunID: candidateRunID)
    }
}

/// The passes of ``CaseFlips/find(store:baselineRunID:candidateRunID:limit:textLimit:)``.
struct CaseFlipFinder {
    struct ArmKey: Hashable {
        var feature: String
        var armID: String
    }

    struct CaseKey: Hashable {
        var arm: ArmKey
        var caseID: String
        var repeatIndex: Int

        init(arm: ArmKey, caseID: String, repeatIndex: Int) {
            self.arm = arm
            self.caseID = caseID
            self.repeatIndex = repeatIndex
        }

        init(_ record: ResultRecord) {
            self.init(
                arm: ArmKey(feature: record.feature, armID: record.key.armID), caseID: record.key.caseID,
                repeatIndex: record.key.repeatIndex)
        }

        init(_ record: ResultMeasures) {
            self.init(
                arm: ArmKey(feature: record.feature, armID: record.key.armID), caseID: record.key.caseID,
                repeatIndex: record.key.repeatIndex)
        }
    }

    /// Where a listed case sits, to attach its baseline outcome in the third pass.
    struct Slot {
        var arm: ArmKey
        var passToFail: Bool
        var index: Int
    }

    struct ArmState {
        var paired = 0
        var passToFailCount = 0
        var failToPassCount = 0
        var passToFail: [FlippedCase] = []
        var failToPass: [FlippedCase] = []
    }

    let limit: Int?
    let textLimit: Int?
    private var baselineVerdicts: [CaseKey: Bool] = [:]
    private var baselineArms: Set<ArmKey> = []
    private var arms: [ArmKey: ArmState] = [:]
    private var slots: [CaseKey: Slot]?

    init(limit: Int?, textLimit: Int?) {
        self.limit = limit.map { max(0, $0) }
        self.textLimit = textLimit
    }

    /// Baseline results need only their verdict, so they stream as measures (no texts).
    mutating func addBaseline(_ record: ResultMeasures) {
        let key = CaseKey(record)
        baselineArms.insert(key.arm)
        if let verdict = CaseOutcome.verdict(record) { baselineVerdicts[key] = verdict }
    }

    /// The per-case pass/fail of a report's measured arms.
    mutating func addBaseline(_ report: RunReport) {
        for feature in report.features {
            // A feature with reduced repeats keeps one value per case, not each repeat's pass/fail.
            guard let keys = feature.caseKeys, feature.repeats == nil else { continue }
            for arm in feature.arms where arm.notMeasured == nil && arm.errorsByKind[NotMeasured.errorKind] != arm.count {
                guard let adherence = arm.cases?.adherence else { continue }
                let armKey = ArmKey(feature: feature.feature, armID: arm.armID)
                baselineArms.insert(armKey)
                for (index, value) in adherence.enumerated() where index < keys.count {
                    guard let value else { continue }
                    let (caseID, repeatIndex) = SideBySideSelector.split(keys[index])
                    baselineVerdicts[CaseKey(arm: armKey, caseID: caseID, repeatIndex: repeatIndex)] = value == 1
                }
            }
        }
    }

    mutating func considerCandidate(_ record: ResultRecord) {
        let key = CaseKey(record)
        guard baselineArms.contains(key.arm) else { return }
        guard let now = CaseOutcome.verdict(record), let before = baselineVerdicts[key] else { return }
        var state = arms[key.arm] ?? ArmState()
        state.paired += 1
        if before != now {
            let flipped = FlippedCase(
                caseID: key.caseID, repeatIndex: key.repeatIndex,
                baseline: CaseOutcome(input: nil, passed: before, output: nil, error: nil, failedChecks: [], scores: [:]), candidate: CaseOutcome(record, textLimit: textLimit))
            if before {
                state.passToFailCount += 1
                insert(flipped, into: &state.passToFail)
            } else {
                state.failToPassCount += 1
                insert(flipped, into: &state.failToPass)
            }
        }
        arms[key.arm] = state
    }

    /// Keeps the first `limit` cases in reading order, building nothing for cases that do not enter.
    private func insert(_ flipped: FlippedCase, into list: inout [FlippedCase]) {
        let precedes = { (a: FlippedCase, b: FlippedCase) in
            CaseText.precedes((a.caseID, a.repeatIndex), (b.caseID, b.repeatIndex))
        }
        if let limit, list.count >= limit {
            guard let last = list.last, precedes(flipped, last) else { return }
        }
        let position = list.firstIndex { precedes(flipped, $0) } ?? list.count
        list.insert(flipped, at: position)
        if let limit, list.count > limit { list.removeLast() }
    }

    var needsBaselineDetails: Bool {
        arms.values.contains { !$0.passToFail.isEmpty || !$0.failToPass.isEmpty }
    }

    /// The keys of the listed cases in `runID`.
    func listedKeys(runID: String) -> [ResultKey] {
        arms.flatMap { arm, state in
            (state.passToFail + state.failToPass).map {
                ResultKey(runID: runID, caseID: $0.caseID, armID: arm.armID, repeatIndex: $0.repeatIndex)
            }
        }
    }

    mutating func fillBaseline(_ record: ResultRecord) {
        if slots == nil { slots = makeSlots() }
        guard let slot = slots?[CaseKey(record)] else { return }
        let outcome = CaseOutcome(record, textLimit: textLimit)
        if slot.passToFail {
            arms[slot.arm]?.passToFail[slot.index].baseline = outcome
        } else {
            arms[slot.arm]?.failToPass[slot.index].baseline = outcome
        }
    }

    private func makeSlots() -> [CaseKey: Slot] {
        var slots: [CaseKey: Slot] = [:]
        for (arm, state) in arms {
            for (index, flipped) in state.passToFail.enumerated() {
                slots[CaseKey(arm: arm, caseID: flipped.caseID, repeatIndex: flipped.repeatIndex)] = Slot(arm: arm, passToFail: true, index: index)
            }
            for (index, flipped) in state.failToPass.enumerated() {
                slots[CaseKey(arm: arm, caseID: flipped.caseID, repeatIndex: flipped.repeatIndex)] = Slot(arm: arm, passToFail: false, index: index)
            }
        }
        return slots
    }

    func finish(baselineRunID: String, candidateRunID: String) -> CaseFlips {
        let ordered = arms.keys.sorted { ($0.feature, $0.armID) < ($1.feature, $1.armID) }
        return CaseFlips(
            baselineRunID: baselineRunID, candidateRunID: candidateRunID,
            arms: ordered.compactMap { key in
                guard let state = arms[key], state.paired > 0 else { return nil }
                return ArmFlips(
                    feature: key.feature, armID: key.armID, pairedCount: state.paired,
                    passToFailCount: state.passToFailCount, failToPassCount: state.failToPassCount,
                    passToFail: state.passToFail, failToPass: state.failToPass)
            })
    }
}
