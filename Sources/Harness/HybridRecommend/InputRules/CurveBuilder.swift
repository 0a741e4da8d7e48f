import HybridConfig
import HybridCore
import HybridReport

/// The cost–quality curve of the single-threshold family: for each feature, one point per threshold of its grid
/// (the direction whose routing keeps more adherence), over all cases; the feature with the largest average gap
/// recovered is shown. In-sample, as a description of the family (the proposed rule's own figures are cross-fitted).
struct CurveBuilder {
    let cases: InputCaseTable
    let routes: LearningRoutes

    /// The best feature's curve; nil when no feature varies.
    func best() -> CostQualityCurve? {
        let device = point(routes.baselines[1].outcomes, label: "all-device")
        let cloud = point(routes.baselines[2].outcomes, label: "all-cloud")
        var grouped: [InputFeatures.Name: [(InputTest, [Bool])]] = [:]
        for entry in RuleFamily.tests(cases, grid: RuleFamily.singleGrid) {
            if let name = entry.0.feature { grouped[name, default: []].append(entry) }
        }
        let curves = grouped.keys.sorted { $0.rawValue < $1.rawValue }.map { name in
            CostQualityCurve(feature: name.rawValue, points: points(grouped[name]!), allDevice: device, allCloud: cloud)
        }
        return curves.max { ($0.averageGapRecovered ?? 0) < ($1.averageGapRecovered ?? 0) }
    }

    /// Per threshold (tests come in pairs: at least, below; or a flag's two values), the better direction's point.
    private func points(_ tests: [(InputTest, [Bool])]) -> [CostQualityCurve.Point] {
        stride(from: 0, to: tests.count - 1, by: 2).map { k in
            let a = point(for: tests[k])
            let b = point(for: tests[k + 1])
            return a.adherence >= b.adherence ? a : b
        }
    }

    private func point(for test: (InputTest, [Bool])) -> CostQualityCurve.Point {
        point(routes.sides[0].device.picking(routes.sides[0].cloud, where: test.1), label: test.0.plainWords + " → cloud")
    }

    private func point(_ outcomes: CaseOutcomes, label: String) -> CostQualityCurve.Point {
        CostQualityCurve.Point(
            cloudShare: RuleSelection.mean(outcomes.cloud), adherence: RuleSelection.mean(outcomes.adherence), label: label)
    }
}
