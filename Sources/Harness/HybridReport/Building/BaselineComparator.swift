/// Compares a report with a baseline report arm by arm (same feature, same arm id), current first.
///
/// Paired on (case id, repeat) when both reports carry per-case data; otherwise, and only then, an unpaired normal
/// interval from the two summaries (the comparison's `test` says `unpaired-normal`). The baseline family is
/// Holm-adjusted on its own, apart from the within-run comparisons.
public enum BaselineComparator {
    /// The baseline section for `current` against `baseline`; `source` says where the baseline came from.
    public static func compare(
        current: RunReport, baseline: RunReport, source: String, options: ReportOptions
    ) -> BaselineComparison {
        var pending: [PendingComparison] = []
        var unmatched: [String] = []
        for feature in current.features {
            guard let old = baseline.feature(feature.feature) else {
                unmatched += feature.arms.map { feature.feature + "/" + $0.armID }
                continue
            }
            let oldIDs = Set(old.arms.map(\.armID))
            unmatched += old.arms.filter { feature.arm($0.armID) == nil }.map { feature.feature + "/" + $0.armID }
            for arm in feature.arms {
                guard oldIDs.contains(arm.armID), let oldArm = old.arm(arm.armID) else {
                    unmatched.append(feature.feature + "/" + arm.armID)
                    continue
                }
                // An arm never sent in either run has nothing to compare.
                if arm.notMeasured != nil || oldArm.notMeasured != nil { continue }
                let first = "\(arm.armID) [\(current.runID)]"
                let second = "\(arm.armID) [\(baseline.runID)]"
                if let (keys, oldKeys) = unitKeys(feature, old), let cases = arm.cases, let oldCases = oldArm.cases {
                    let pairs = alignment(keys, oldKeys)
                    let scorers = feature.scorers.filter { old.scorers.contains($0) }
                    pending += FeatureAccumulator.compare(
                        feature: feature.feature, firstName: first, first: cases, secondName: second, second: oldCases,
                        pairs: pairs, scorers: scorers, options: options
                    )
                } else {
                    pending += unpaired(feature: feature.feature, first: first, arm: arm, second: second, oldArm: oldArm, options: options)
                }
            }
        }
        for old in baseline.features where current.feature(old.feature) == nil {
            unmatched += old.arms.map { old.feature + "/" + $0.armID }
        }
        // Arms never sent are listed once, as not measured, in their own report; not again as unmatched.
        let notMeasured = Set((current.features + baseline.features).flatMap { feature in
            feature.arms.filter { $0.notMeasured != nil }.map { feature.feature + "/" + $0.armID }
        })
        unmatched.removeAll { notMeasured.contains($0) }
        return BaselineComparison(
            baselineRunID: baseline.runID, source: source,
            comparisons: ComparisonCalculator.finalize(pending, options: options),
            unmatchedArms: Array(Set(unmatched)).sorted()
        )
    }

    /// The two features' case keys in one unit: as stored when neither reduced repeats; case ids when either did
    /// (a single-repeat report's "id#0" becomes "id"). nil when either lacks per-case data, or when a report kept
    /// several repeats per case unreduced (written before repeats were reduced): those compare unpaired.
    static func unitKeys(_ current: FeatureReport, _ baseline: FeatureReport) -> ([String], [String])? {
        guard let keys = current.caseKeys, let oldKeys = baseline.caseKeys else { return nil }
        if current.repeats == nil && baseline.repeats == nil { return (keys, oldKeys) }
        func caseIDs(_ feature: FeatureReport, _ keys: [String]) -> [String]? {
            if feature.repeats != nil { return keys }
            var ids: [String] = []
            for key in keys {
                let (id, repeatIndex) = SideBySideSelector.split(key)
                guard repeatIndex == 0 else { return nil }
                ids.append(id)
            }
            return ids
        }
        guard let first = caseIDs(current, keys), let second = caseIDs(baseline, oldKeys) else { return nil }
        return (first, second)
    }

    /// Index pairs (current, baseline) of the case keys both have, in the current order.
    static func alignment(_ keys: [String], _ oldKeys: [String]) -> [(Int, Int)] {
        var oldIndex: [String: Int] = [:]
        oldIndex.reserveCapacity(oldKeys.count)
        for (index, key) in oldKeys.enumerated() {
            oldIndex[key] = index
        }
        return keys.enumerated().compactMap { index, key in oldIndex[key].map { (index, $0) } }
    }

    private static func unpaired(
        feature: String, first: String, arm: ArmSummary, second: String, oldArm: ArmSummary, options: ReportOptions
    ) -> [PendingComparison] {
        var pending: [PendingComparison] = []
        if let a = arm.adherence, let b = oldArm.adherence {
            func se(_ p: ProportionSummary) -> Double { (p.rate * (1 - p.rate) / Double(p.total)).squareRoot() }
            pending.append(ComparisonCalculator.unpaired(
                feature: feature, metric: "adherence", first: first, second: second,
                firstSample: (a.rate, se(a), a.total), secondSample: (b.rate, se(b), b.total),
                direction: .higherIsBetter, units: .proportion, options: options
            ))
        }
        for score in arm.quality {
            guard let old = oldArm.quality(score.scorer) else { continue }
            pending.append(ComparisonCalculator.unpaired(
                feature: feature, metric: "quality:" + score.scorer, first: first, second: second,
                firstSample: (score.mean, score.standardError, score.count),
                secondSample: (old.mean, old.standardError, old.count),
                direction: .higherIsBetter, units: .score, options: options
            ))
        }
        if let a = arm.latency.totalMs, let b = oldArm.latency.totalMs {
            pending.append(ComparisonCalculator.unpaired(
                feature: feature, metric: "latency.totalMs", first: first, second: second,
                firstSample: (a.mean, a.standardError, a.count), secondSample: (b.mean, b.standardError, b.count),
                direction: .lowerIsBetter, units: .milliseconds, options: options
            ))
        }
        return pending
    }
}
