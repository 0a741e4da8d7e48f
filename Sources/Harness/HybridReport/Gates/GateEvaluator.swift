import Foundation

/// Checks a report against a ``GateSpec``; what `hybrid compare --gate` and `hybrid eval --gate` call.
///
/// Every (feature, arm) gets one result per threshold that applies to it. A threshold on data the arm lacks fails
/// (a misnamed scorer must not pass silently), except latency and cost, which are skipped when there are no
/// samples (every result cached) or no prices. Regression rules need a baseline; without one they are skipped
/// with a message saying so. Arms that were never sent (``ArmSummary/notMeasured``) get one skipped result.
public enum GateEvaluator {
    /// Evaluates `gates` on `report`. `baseline` is only needed for regression rules; when `report.baseline` is
    /// already filled (by `hybrid compare`), its comparisons are used, otherwise they are computed here.
    public static func evaluate(report: RunReport, gates: GateSpec, baseline: RunReport?) -> GateOutcome {
        var results: [GateResult] = []
        for feature in report.features {
            // A gate over a feature no arm answered would pass on nothing (every figure is empty): it fails.
            if report.field == nil && !report.hasAnswers(feature: feature.feature) {
                let why = report.unansweredModels.compactMap { $0.reasons.first?.split(separator: "\n").first }
                results.append(GateResult(
                    feature: feature.feature, armID: "*", gate: "evidence", status: .failed, threshold: nil, actual: 0,
                    message: "no arm answered any case, so no gate can hold"
                        + (why.isEmpty ? "" : " (\(why.joined(separator: "; ")))")))
                continue
            }
            for arm in feature.arms {
                let thresholds = gates.thresholds(feature: feature.feature, arm: arm)
                if let reason = arm.notMeasured {
                    // Never sent: no figure to hold against a threshold, and failing would blame the model.
                    if thresholds != GateThresholds() {
                        results.append(GateResult(
                            feature: feature.feature, armID: arm.armID, gate: "thresholds", status: .skipped,
                            threshold: nil, actual: nil, message: "not measured: " + reason))
                    }
                    continue
                }
                results += thresholdResults(feature: feature.feature, arm: arm, thresholds)
            }
        }
        if let rule = gates.regression {
            if let baseline {
                let comparison = report.baseline ?? BaselineComparator.compare(
                    current: report, baseline: baseline, source: "baseline", options: ReportOptions(settings: report.settings)
                )
                results += regressionResults(report: report, baseline: baseline, comparison: comparison, rule: rule)
            } else {
                results.append(GateResult(
                    feature: "*", armID: "*", gate: "regression", status: .skipped, threshold: nil, actual: nil,
                    message: "regression rules need a baseline: pass --baseline reports/baseline.json or compare two runs"
                ))
            }
        }
        return GateOutcome(results: results)
    }

    private static func thresholdResults(feature: String, arm: ArmSummary, _ thresholds: GateThresholds) -> [GateResult] {
        var results: [GateResult] = []
        func add(_ gate: String, _ status: GateResult.Status, _ threshold: Double?, _ actual: Double?, _ message: String) {
            results.append(GateResult(
                feature: feature, armID: arm.armID, gate: gate, status: status, threshold: threshold, actual: actual, message: message
            ))
        }
        if let minimum = thresholds.minAdherenceLower {
            if let adherence = arm.adherence {
                let ok = adherence.lower >= minimum
                add("minAdherenceLower", ok ? .passed : .failed, minimum, adherence.lower,
                    "adherence lower bound \(f3(adherence.lower)) \(ok ? "≥" : "<") \(f3(minimum)) "
                        + "(\(adherence.passed)/\(adherence.total) passed, rate \(f3(adherence.rate)))")
            } else {
                add("minAdherenceLower", .failed, minimum, nil, "no adherence data: the feature's results carry no constraint outcomes")
            }
        }
        for (scorer, minimum) in (thresholds.minQuality ?? [:]).sorted(by: { $0.key < $1.key }) {
            if let quality = arm.quality(scorer) {
                let ok = quality.mean >= minimum
                let interval = quality.lower.map { lower in ", 95% CI [\(f3(lower)), \(f3(quality.upper ?? lower))]" } ?? ""
                add("minQuality:" + scorer, ok ? .passed : .failed, minimum, quality.mean,
                    "\(scorer) mean \(f3(quality.mean)) \(ok ? "≥" : "<") \(f3(minimum)) (n = \(quality.count)\(interval))")
            } else {
                add("minQuality:" + scorer, .failed, minimum, nil, "no \(scorer) scores for this arm; check the scorer name")
            }
        }
        if let maximum = thresholds.maxP95TotalMs {
            if let total = arm.latency.totalMs {
                let ok = total.p95 <= maximum
                add("maxP95TotalMs", ok ? .passed : .failed, maximum, total.p95,
                    "p95 total latency \(f0(total.p95)) ms \(ok ? "≤" : ">") \(f0(maximum)) ms (n = \(total.count))")
            } else {
                add("maxP95TotalMs", .skipped, maximum, nil,
                    "no latency samples (cache hits, retries, cold starts and errors are excluded)")
            }
        }
        if let maximum = thresholds.maxCostPer1k {
            if let cost = arm.cost {
                let ok = cost.per1kRequestsUSD <= maximum
                add("maxCostPer1k", ok ? .passed : .failed, maximum, cost.per1kRequestsUSD,
                    "cost per 1,000 requests $\(f4(cost.per1kRequestsUSD)) \(ok ? "≤" : ">") $\(f4(maximum))")
            } else {
                add("maxCostPer1k", .skipped, maximum, nil, "no priced results for this arm")
            }
        }
        return results
    }

    private static func regressionResults(
        report: RunReport, baseline: RunReport, comparison: BaselineComparison, rule: RegressionRule
    ) -> [GateResult] {
        var results: [GateResult] = []
        for feature in report.features {
            guard let oldFeature = baseline.feature(feature.feature) else { continue }
            for arm in feature.arms {
                guard let oldArm = oldFeature.arm(arm.armID) else { continue }
                switch rule.mode {
                case .significant:
                    let label = "\(arm.armID) [\(report.runID)]"
                    for item in comparison.comparisons where item.feature == feature.feature && item.first == label {
                        let metric = item.metric.hasPrefix("quality:") ? "quality" : item.metric.hasPrefix("latency") ? "latency" : item.metric
                        guard rule.checks(metric) else { continue }
                        results.append(GateResult(
                            feature: feature.feature, armID: arm.armID, gate: "regression:" + item.metric,
                            status: item.firstIsWorse ? .failed : .passed, threshold: nil, actual: item.difference,
                            message: (item.firstIsWorse ? "significant regression: " : "") + item.verdict
                        ))
                    }
                case .threshold:
                    results += thresholdRegressions(feature: feature.feature, arm: arm, oldArm: oldArm, rule: rule)
                }
            }
        }
        return results
    }

    private static func thresholdRegressions(feature: String, arm: ArmSummary, oldArm: ArmSummary, rule: RegressionRule) -> [GateResult] {
        var results: [GateResult] = []
        func add(_ gate: String, drop: Double, allowed: Double, _ text: String) {
            let ok = drop <= allowed
            results.append(GateResult(
                feature: feature, armID: arm.armID, gate: gate, status: ok ? .passed : .failed, threshold: allowed,
                actual: drop, message: text + (ok ? " (allowed \(allowed))" : " exceeds the allowed \(allowed)")
            ))
        }
        if rule.checks("adherence"), let now = arm.adherence, let before = oldArm.adherence {
            add("regression:adherence", drop: before.rate - now.rate, allowed: rule.maxAdherenceDrop ?? 0,
                "adherence \(f3(before.rate)) → \(f3(now.rate)), drop \(f3(before.rate - now.rate))")
        }
        if rule.checks("quality") {
            for score in arm.quality {
                guard let old = oldArm.quality(score.scorer) else { continue }
                add("regression:quality:" + score.scorer, drop: old.mean - score.mean, allowed: rule.maxQualityDrop ?? 0,
                    "\(score.scorer) \(f3(old.mean)) → \(f3(score.mean)), drop \(f3(old.mean - score.mean))")
            }
        }
        if rule.checks("latency"), let now = arm.latency.totalMs, let before = oldArm.latency.totalMs {
            add("regression:latency.p95TotalMs", drop: now.p95 - before.p95, allowed: rule.maxP95IncreaseMs ?? 0,
                "p95 total latency \(f0(before.p95)) → \(f0(now.p95)) ms, increase \(f0(now.p95 - before.p95)) ms")
        }
        return results
    }

    private static func f0(_ value: Double) -> String { String(format: "%.0f", value) }
    private static func f3(_ value: Double) -> String { String(format: "%.3f", value) }
    private static func f4(_ value: Double) -> String { String(format: "%.4f", value) }
}
