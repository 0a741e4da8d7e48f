import HybridStore

/// One feature's arms while streaming, with the shared case index that aligns every arm's per-case arrays.
struct FeatureAccumulator {
    let feature: String
    /// The (case, repeat) pairs while streaming; their "caseID#repeat" keys (`caseKeys`) when the stream ends.
    private var cases = CaseTable()
    private(set) var caseKeys: [String] = []
    /// The arms by id, filled from `streamingArms` when the stream ends.
    private(set) var arms: [String: ArmAccumulator] = [:]
    /// The arms while streaming, found through `armPositions` without hashing the arm id per result.
    private var streamingArms: [ArmAccumulator] = []
    private var armPositions = PositionCache()
    /// The previous result's case code and repeat on the current page, and its index: an arm's results of one case
    /// usually come together.
    private var lastCase: (code: Int32, repeatIndex: Int, index: Int)?
    private var constraintNames: Set<String> = []
    private var scorers: Set<String> = []
    /// Per-page state: which page (``ReportAccumulator`` numbers them), each text code's arm position (-1: not
    /// looked up yet), and which codes were already noted as constraint names and scorers.
    private var page = 0
    private var armSlots: [Int] = []
    private var constraintNameSeen: [Bool] = []
    private var scorerSeen: [Bool] = []

    init(feature: String) {
        self.feature = feature
    }

    /// Adds row `row` of page number `pageNumber` (numbers change with each page).
    mutating func add(_ columns: MeasureColumns, row: Int, pageNumber: Int, options: ReportOptions) {
        if pageNumber != page { begin(columns, pageNumber: pageNumber) }
        let index = caseIndex(columns, row: row)
        for position in columns.constraintRange(row) {
            let code = Int(columns.constraintNameCodes[position])
            if !constraintNameSeen[code] {
                constraintNameSeen[code] = true
                constraintNames.insert(columns.texts[code])
            }
        }
        for position in columns.scoreRange(row) {
            let code = Int(columns.scorerCodes[position])
            if !scorerSeen[code] {
                scorerSeen[code] = true
                scorers.insert(columns.texts[code])
            }
        }
        let armCode = Int(columns.armCodes[row])
        var position = armSlots[armCode]
        if position < 0 {
            position = armPositions.position(of: columns.texts[armCode]) {
                streamingArms.append(ArmAccumulator(columns, row: row, worstCaseLimit: options.worstCasesPerArm))
                return streamingArms.count - 1
            }
            armSlots[armCode] = position
        }
        streamingArms[position].add(columns, row: row, pageNumber: pageNumber, caseIndex: index)
    }

    private mutating func begin(_ columns: MeasureColumns, pageNumber: Int) {
        page = pageNumber
        armSlots = Array(repeating: -1, count: columns.texts.count)
        constraintNameSeen = Array(repeating: false, count: columns.texts.count)
        scorerSeen = constraintNameSeen
        lastCase = nil
    }

    /// The index of the row's (case, repeat), new ones appended; the previous row's is reused without hashing.
    private mutating func caseIndex(_ columns: MeasureColumns, row: Int) -> Int {
        let code = columns.caseCodes[row]
        let repeatIndex = columns.repeatIndexes[row]
        if let lastCase, lastCase.code == code, lastCase.repeatIndex == repeatIndex { return lastCase.index }
        let index = cases.index(caseID: columns.texts[Int(code)], repeatIndex: repeatIndex)
        lastCase = (code, repeatIndex, index)
        return index
    }

    /// "caseID#repeat": the unit two arms are paired on in a single-repeat run (a run with repeats pairs case ids).
    static func caseKey(caseID: String, repeatIndex: Int) -> String {
        caseID + "#" + String(repeatIndex)
    }

    /// The feature section without verdicts, and the comparisons still to be Holm-adjusted with the rest of the
    /// report. Frees what only streaming and the summaries needed as it goes, so a million-result report does not
    /// hold the streaming arrays and the summaries' per-case vectors at once.
    mutating func finish(options: ReportOptions) -> (FeatureReport, [PendingComparison]) {
        for arm in streamingArms { arms[arm.armID] = arm }
        streamingArms = []
        lastCase = nil
        armSlots = []
        caseKeys = cases.keys()
        let order = putCasesInKeyOrder()
        let reduction = CaseReduction(
            caseIDs: order.map { cases.caseIDs[$0] }, repeatIndexes: order.map { cases.repeats[$0] },
            reducer: options.reducer)
        cases = CaseTable()
        let names = constraintNames.sorted()
        let scorerNames = scorers.sorted()
        let hasConstraints = !names.isEmpty
        var summaries: [ArmSummary] = []
        for id in arms.keys.sorted() {
            guard let summary = arms[id]?.summary(
                caseCount: caseKeys.count, featureHasConstraints: hasConstraints, constraintNames: names,
                reduction: reduction, options: options
            ) else { continue }
            summaries.append(summary)
            arms[id]?.releaseSummaryInputs()
        }
        let primary = scorerNames.first
        Self.markParetoFront(&summaries, scorer: primary)
        // An arm whose every result is `unavailable` was never sent (no key, not installed): it is listed once as
        // not measured, but comparing measured arms against it would report "better by 100 pp" over nothing.
        let attempted = summaries.filter { $0.notMeasured == nil }
        let best = Self.bestArm(attempted, scorer: primary)
        let pairs = Self.pairs(attempted, best: best, options: options)
        let unitKeys = reduction?.caseIDs ?? caseKeys
        let pending = comparisons(attempted, pairs: pairs, scorers: scorerNames, caseCount: unitKeys.count, options: options)
        let worst = attempted.flatMap { arms[$0.armID]?.worst.cases ?? [] }
        var report = FeatureReport(
            feature: feature, scorers: scorerNames, constraintNames: names, primaryScorer: primary, bestArm: best,
            arms: summaries, comparisons: [], worstCases: worst, caseKeys: unitKeys,
            sideBySide: sideBySide(pairs, primaryScorer: primary, options: options)
        )
        if let reduction {
            report.repeats = RepeatSummary(
                cases: reduction.caseIDs.count, repeats: reduction.repeats, reducer: reduction.reducer)
        }
        return (report, pending)
    }

    /// Cases in key order instead of arrival order. A report is a function of the set of results: the paired
    /// bootstrap resamples by position and ties are broken by position, so results that completed in another order
    /// (concurrency, a resumed run, shards joined by `hybrid merge`) gave other p-values.
    private mutating func putCasesInKeyOrder() -> [Int] {
        let order = caseKeys.indices.sorted { caseKeys[$0] < caseKeys[$1] }
        caseKeys = order.map { caseKeys[$0] }
        for id in arms.keys { arms[id]?.reorder(order) }
        return order
    }

    /// The best arm against each other arm, or the named pairs present in this feature.
    static func pairs(_ summaries: [ArmSummary], best: String?, options: ReportOptions) -> [ArmPair] {
        let ids = Set(summaries.map(\.armID))
        if let named = options.pairs {
            return named.filter { ids.contains($0.first) && ids.contains($0.second) && $0.first != $0.second }
        }
        guard let best else { return [] }
        return summaries.map(\.armID).filter { $0 != best }.map { ArmPair(best, $0) }
    }

    /// One side by side per pair, cases chosen from the compact arrays; outcomes are filled by a second pass.
    private func sideBySide(_ pairs: [ArmPair], primaryScorer: String?, options: ReportOptions) -> [SideBySide] {
        pairs.compactMap { pair in
            guard let first = arms[pair.first], let second = arms[pair.second] else { return nil }
            return SideBySideSelector(
                first: first, second: second, caseKeys: caseKeys, primaryScorer: primaryScorer,
                limit: options.sideBySideCasesPerPair
            ).select()
        }
    }

    /// Ranking for "best": adherence rate, then primary quality mean, then lower median latency, then arm id, among
    /// the arms the quality-versus-cost chart does not show dominated (another arm as good and cheaper, or better
    /// for the same cost): the ★ never marks an arm its own chart shows beaten.
    static func bestArm(_ arms: [ArmSummary], scorer: String?) -> String? {
        let undominated = arms.filter { $0.paretoOptimal != false }
        return ranked(undominated.isEmpty ? arms : undominated, scorer: scorer)
    }

    private static func ranked(_ arms: [ArmSummary], scorer: String?) -> String? {
        func key(_ arm: ArmSummary) -> (Double, Double, Double) {
            (
                arm.adherence?.rate ?? -1,
                scorer.flatMap { arm.quality($0)?.mean } ?? -Double.greatestFiniteMagnitude,
                -(arm.latency.totalMs?.p50 ?? Double.greatestFiniteMagnitude)
            )
        }
        return arms.max { lhs, rhs in
            let (l, r) = (key(lhs), key(rhs))
            if l != r { return l < r }
            return lhs.armID > rhs.armID
        }?.armID
    }

    /// Quality (primary scorer, higher better) against cost per 1,000 (lower better).
    static func markParetoFront(_ arms: inout [ArmSummary], scorer: String?) {
        guard let scorer else { return }
        let points: [(Double, Double)?] = arms.map { arm in
            guard let quality = arm.quality(scorer)?.mean, let cost = arm.cost?.per1kRequestsUSD else { return nil }
            return (quality, cost)
        }
        for index in arms.indices {
            guard let (quality, cost) = points[index] else { continue }
            let dominated = points.contains { other in
                guard let (q, c) = other else { return false }
                return q >= quality && c <= cost && (q > quality || c < cost)
            }
            arms[index].paretoOptimal = !dominated
        }
    }

    private func comparisons(
        _ summaries: [ArmSummary], pairs: [ArmPair], scorers: [String], caseCount: Int, options: ReportOptions
    ) -> [PendingComparison] {
        let identity = (0..<caseCount).map { ($0, $0) }
        var pending: [PendingComparison] = []
        for pair in pairs {
            guard let first = summaries.first(where: { $0.armID == pair.first })?.cases,
                let second = summaries.first(where: { $0.armID == pair.second })?.cases
            else { continue }
            pending += Self.compare(
                feature: feature, firstName: pair.first, first: first, secondName: pair.second, second: second,
                pairs: identity, scorers: scorers, options: options
            )
        }
        return pending
    }

    /// Every metric the two arms share: adherence, each scorer, total latency.
    static func compare(
        feature: String, firstName: String, first: ArmCases, secondName: String, second: ArmCases,
        pairs: [(Int, Int)], scorers: [String], options: ReportOptions
    ) -> [PendingComparison] {
        var pending: [PendingComparison] = []
        if let adherence = ComparisonCalculator.adherence(
            feature: feature, first: firstName, second: secondName, firstValues: first.adherence,
            secondValues: second.adherence, pairs: pairs, options: options
        ) {
            pending.append(adherence)
        }
        for scorer in scorers {
            guard let x = first.scores[scorer], let y = second.scores[scorer] else { continue }
            if let comparison = ComparisonCalculator.means(
                feature: feature, metric: "quality:" + scorer, first: firstName, second: secondName, firstValues: x,
                secondValues: y, pairs: pairs, direction: .higherIsBetter, units: .score, options: options
            ) {
                pending.append(comparison)
            }
        }
        if let latency = ComparisonCalculator.means(
            feature: feature, metric: "latency.totalMs", first: firstName, second: secondName,
            firstValues: first.totalMs, secondValues: second.totalMs, pairs: pairs, direction: .lowerIsBetter,
            units: .milliseconds, options: options
        ) {
            pending.append(latency)
        }
        return pending
    }
}
