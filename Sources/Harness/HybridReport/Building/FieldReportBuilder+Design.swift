import Foundation
import HybridStore

/// A planned-horizon design's part of the field report: which reading this is, the verdicts its planned looks
/// govern, what a look keeps of it, and how the method paragraph states it.
extension FieldReportBuilder {
    /// The look-history key of `comparison`.
    static func key(_ comparison: FieldComparison) -> String {
        FieldLook.Entry.key(arm: comparison.arm, control: comparison.control, metric: comparison.metric, segment: comparison.segment)
    }

    /// z = difference / standard error (delta method, CUPED-adjusted where it applies) of each comparison with an
    /// always-valid test, by key.
    static func zValues(_ comparisons: [FieldComparison]) -> [String: Double] {
        var out: [String: Double] = [:]
        for c in comparisons where c.sequentialPValue != nil {
            guard let se = c.standardError, se > 0, se.isFinite, c.difference.isFinite else { continue }
            out[key(c)] = c.difference / se
        }
        return out
    }

    /// How far the run is in the horizon's unit at `now`: days since its first event, or its distinct installs.
    static func progress(_ events: [FieldEventRecord], horizon: FieldDesign.Horizon, now: Date) -> Double {
        switch horizon {
        case .days:
            guard let first = events.map(\.occurredAt).min() else { return 0 }
            return now.timeIntervalSince(first) / 86_400
        case .installs:
            return Double(Set(events.map(\.installID)).count)
        }
    }

    /// What this reading's look records: the design, since when it governs the run, and the planned look it is.
    func plan(_ governor: PlannedLookGovernor, history: [FieldLook], now: Date) -> FieldLook.Plan {
        FieldLook.Plan(
            design: governor.design.summary(alpha: options.alpha),
            since: history.first { $0.plan != nil }?.plan?.since ?? now,
            look: governor.position.look, fraction: governor.position.fraction)
    }

    /// The verdict of a judged comparison under a planned design and the test that governed it: a boundary crossed
    /// at a planned look, else the always-valid test at α·s (at any reading), else no decision.
    func plannedVerdict(
        _ c: FieldComparison, governor: PlannedLookGovernor, status: PlannedLookGovernor.Status?, family: Int
    ) -> (verdict: String, decidedBy: String?) {
        if c.runningLooks != nil, let lower = c.sequentialLower, let upper = c.sequentialUpper, lower > upper {
            return ("inconsistent across looks: not judged", nil)
        }
        let higherIsBetter = c.metric == "adherence"
        if let status, status.rejected {
            return ((status.z > 0) == higherIsBetter ? "better" : "worse", governor.text(status))
        }
        let standing = status.map(governor.text) ?? governor.position.text
        let p = c.adjustedPValue ?? 1
        if p < governor.offPlanAlpha {
            var direction = c.difference
            if c.runningLooks != nil, let lower = c.sequentialLower, let upper = c.sequentialUpper {
                direction = (lower + upper) / 2
            }
            let where_ = governor.position.look == nil ? governor.position.text + ": " : ""
            return (
                (direction > 0) == higherIsBetter ? "better" : "worse",
                where_ + governor.offPlanText + String(format: ", Holm-adjusted p %.3g", p)
            )
        }
        let note = standing + String(format: "; always-valid Holm-adjusted p %.3g ≥ %.3g", p, governor.offPlanAlpha)
        return (plannedHeldBack(c, note: note) ?? "no detectable difference", note)
    }

    /// When the printed always-valid interval (at α for its metric alone) excludes 0 but neither part of the
    /// planned design decides, the rules that held it back (#68).
    private func plannedHeldBack(_ c: FieldComparison, note: String) -> String? {
        guard let lower = c.sequentialLower, let upper = c.sequentialUpper, lower > 0 || upper < 0 else { return nil }
        return "no detectable difference under the planned design (\(note); the always-valid interval, at "
            + String(format: "%.2g", options.alpha) + " for this metric alone, excludes 0)"
    }

    /// The method paragraph's account of a planned design.
    static func designMethod(_ governor: PlannedLookGovernor) -> String {
        " Design: " + governor.design.summary(alpha: governor.alpha) + ". Planned looks test z = difference / standard "
            + "error against two-sided Lan–DeMets boundaries at information fraction t (days or installs over the "
            + "horizon, 1 at the last planned look), recomputed by recursive numerical integration (Jennison & "
            + "Turnbull 2000, ch. 19), the metrics and segments sharing that α in the group-sequential graphical form "
            + "of Maurer & Bretz (2013) (the primary metric's whole-run comparisons 0.8 of it when the design names "
            + "one, equal shares otherwise: Holm): a rejection passes its level to the others, whose boundaries are recomputed "
            + "at the new level over the same fractions. A reading between planned looks or past the horizon decides "
            + "only by the always-valid test at the share kept for it (the MDE is that test's, at that share over m); by the "
            + "union bound the two together hold α. "
            + "This reading: \(governor.position.text)."
    }
}
