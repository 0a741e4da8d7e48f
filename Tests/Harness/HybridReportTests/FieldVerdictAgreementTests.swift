@testable import HybridReport
import Testing

/// #68 item 5: where the printed always-valid interval excludes 0 the verdict decides, or names the rule that held
/// it back.
@Suite("Field verdicts agree with the intervals they print")
struct FieldVerdictAgreementTests {
    static func comparison(_ metric: String, interval: (Double, Double), p: Double) -> FieldComparison {
        FieldComparison(
            metric: metric, arm: "b", control: "a", difference: (interval.0 + interval.1) / 2, lower: interval.0, upper: interval.1,
            intervalMethod: "delta", pValue: p, sequentialLower: interval.0, sequentialUpper: interval.1, sequentialPValue: p,
            adjustedPValue: nil, minimumDetectableEffect: nil, verdict: "",
            installs: FieldUnits(arm: 100, control: 100, armEvents: 500, controlEvents: 500))
    }

    @Test("Holm over the metrics holding a decision back is named, with the adjusted p")
    func holmIsNamed() {
        let builder = FieldReportBuilder(percentages: ["b": 50])
        let judged = builder.adjusted([
            Self.comparison("adherence", interval: (0.0135, 0.1964), p: 0.03),
            Self.comparison("latencyMeanMs", interval: (-20, 30), p: 0.6),
            Self.comparison("costPer1000USD", interval: (-0.1, 0.2), p: 0.7),
        ], reportable: true)
        let verdict = judged[0].verdict
        #expect(verdict.hasPrefix("no detectable difference after Holm over 3 metrics (adjusted p 0.09"), "\(verdict)")
        #expect(verdict.contains("excludes 0"))
        #expect(judged[1].verdict == "no detectable difference", "an interval covering 0 needs no explanation")
    }

    @Test("an interval excluding 0 with a p under α after adjustment decides")
    func decides() {
        let builder = FieldReportBuilder(percentages: ["b": 50])
        let judged = builder.adjusted([Self.comparison("adherence", interval: (0.05, 0.2), p: 0.001)], reportable: true)
        #expect(judged[0].verdict == "better")
    }
}
