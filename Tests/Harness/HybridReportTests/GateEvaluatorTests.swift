import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import HybridReport
import Testing

@Suite("Gates")
struct GateEvaluatorTests {
    typealias F = ReportFixtures

    @Test("thresholds hold or fail with the numbers; the adherence gate uses the Wilson lower bound, not the rate")
    func thresholds() throws {
        let report = F.report()
        let gates = GateSpec(features: ["summarize": ["*": GateThresholds(minAdherenceLower: 0.85)]])
        let outcome = GateEvaluator.evaluate(report: report, gates: gates, baseline: nil)
        #expect(outcome.results.count == 3)
        let cloud = try #require(outcome.results.first { $0.armID == "terse@gpt-4o-mini" })
        // 39/40 = 97.5 % but the Wilson lower bound is 0.871: passes at 0.85 …
        #expect(cloud.status == .passed)
        #expect(abs((cloud.actual ?? 0) - 0.871) < 0.001)
        // … and fails at 0.9 although the rate is above it.
        let strict = GateEvaluator.evaluate(report: report, gates: GateSpec(features: ["summarize": ["terse@gpt-4o-mini": GateThresholds(minAdherenceLower: 0.9)]]), baseline: nil)
        #expect(strict.failures.count == 1)
        #expect(strict.failures.first?.message == "adherence lower bound 0.871 < 0.900 (39/40 passed, rate 0.975)")
        #expect(strict.exitCode == 3)
        #expect(!outcome.passed)
    }

    @Test("the most specific pattern wins per threshold: exact arm over @model over *, exact feature over *")
    func specificity() throws {
        let report = F.report()
        let arm = try #require(report.feature("summarize")?.arm("terse@gpt-4o-mini"))
        let gates = GateSpec(features: [
            "*": ["*": GateThresholds(minAdherenceLower: 0.1, maxP95TotalMs: 10)],
            "summarize": [
                "*": GateThresholds(minAdherenceLower: 0.2),
                "@gpt-4o-mini": GateThresholds(minAdherenceLower: 0.3, maxCostPer1k: 1),
                "terse@": GateThresholds(minQuality: ["rouge_l": 0.5]),
                "terse@gpt-4o-mini": GateThresholds(minAdherenceLower: 0.4),
                "@other-model": GateThresholds(minAdherenceLower: 0.99),
            ],
        ])
        let merged = gates.thresholds(feature: "summarize", arm: arm)
        #expect(merged.minAdherenceLower == 0.4)
        #expect(merged.maxP95TotalMs == 10)
        #expect(merged.maxCostPer1k == 1)
        #expect(merged.minQuality == ["rouge_l": 0.5])
        #expect(gates.thresholds(feature: "extract", arm: arm).minAdherenceLower == 0.1)
    }

    @Test("missing quality data fails (a misnamed scorer must not pass); missing latency or price is skipped")
    func missingData() throws {
        let report = F.report()
        let gates = GateSpec(features: ["summarize": ["terse@local-smollm2": GateThresholds(minQuality: ["rogue_l": 0.1], maxCostPer1k: 1)]])
        let outcome = GateEvaluator.evaluate(report: report, gates: gates, baseline: nil)
        #expect(outcome.results.map(\.status) == [.failed, .skipped])
        #expect(outcome.results.first?.message.contains("check the scorer name") == true)
        #expect(outcome.exitCode == 3)
    }

    @Test("significant mode fails only a detectable regression; a noisy drop passes; threshold mode fails any drop beyond the tolerance")
    func regressionModes() throws {
        let current = F.report()
        // A baseline identical except one arm's quality is 0.1 higher: detectable at n = 40.
        let better = F.arms.map { arm -> F.Arm in
            var arm = arm
            if arm.id == "terse@gpt-4o-mini" { arm.scoreBase += 0.1 }
            return arm
        }
        let baseline = ReportBuilder().build(runID: "base", run: nil, results: F.results(runID: "base", arms: better))
        let significant = GateEvaluator.evaluate(
            report: current, gates: GateSpec(regression: RegressionRule(mode: .significant, metrics: ["quality"])), baseline: baseline)
        #expect(significant.failures.map(\.armID) == ["terse@gpt-4o-mini"])
        #expect(significant.failures.first?.message.hasPrefix("significant regression") == true)
        #expect(significant.results.count == 5)

        // Same seeds, same data elsewhere: zero drops, which threshold mode with 0 tolerance accepts.
        let threshold = GateEvaluator.evaluate(
            report: current, gates: GateSpec(regression: RegressionRule(mode: .threshold, metrics: ["quality"], maxQualityDrop: 0.05)),
            baseline: baseline)
        #expect(threshold.failures.map(\.armID) == ["terse@gpt-4o-mini"])
        #expect(threshold.failures.first?.gate == "regression:quality:rouge_l")

        // A small drop (0.01) the paired CI cannot tell from noise passes in significant mode, fails in threshold mode.
        let slightly = F.arms.map { arm -> F.Arm in
            var arm = arm
            arm.scoreBase += 0.01
            return arm
        }
        let noisyBase = ReportBuilder().build(runID: "base", run: nil, results: F.results(runID: "base", arms: slightly, seed: 99))
        let lenient = GateEvaluator.evaluate(
            report: current, gates: GateSpec(regression: RegressionRule(mode: .significant, metrics: ["quality"])), baseline: noisyBase)
        #expect(lenient.passed)
        let strict = GateEvaluator.evaluate(
            report: current, gates: GateSpec(regression: RegressionRule(mode: .threshold, metrics: ["quality"])), baseline: noisyBase)
        #expect(!strict.passed)
    }

    @Test("a baseline JSON without per-case data falls back to an unpaired comparison and says so")
    func unpairedBaseline() throws {
        let current = F.report()
        let data = try current.jsonData(includeCases: false)
        let baseline = try RunReport.decode(data, path: "baseline.json")
        #expect(baseline.features.allSatisfy { $0.caseKeys == nil })
        let comparison = BaselineComparator.compare(current: current, baseline: baseline, source: "baseline.json", options: ReportOptions())
        #expect(!comparison.comparisons.isEmpty)
        #expect(comparison.comparisons.allSatisfy { $0.test == "unpaired-normal" })
        #expect(comparison.comparisons.allSatisfy { $0.outcome == "no-detectable-difference" })
        let paired = BaselineComparator.compare(current: current, baseline: try RunReport.decode(try current.jsonData(), path: "b"), source: "b", options: ReportOptions())
        #expect(paired.comparisons.allSatisfy { $0.test != "unpaired-normal" })
    }

    @Test("regression rules without a baseline are skipped with a message, not passed silently")
    func regressionWithoutBaseline() {
        let outcome = GateEvaluator.evaluate(report: F.report(), gates: GateSpec(regression: RegressionRule()), baseline: nil)
        #expect(outcome.results.count == 1)
        #expect(outcome.results.first?.status == .skipped)
        #expect(outcome.results.first?.message.contains("--baseline") == true)
    }

    @Test("gates.json decodes; impossible values are refused with the path")
    func gateFile() async throws {
        try await F.withTemporaryDirectory { directory in
            let good = directory.appendingPathComponent("gates.json")
            try Data(#"""
                {"features": {"summarize": {"*": {"minAdherenceLower": 0.9, "minQuality": {"rouge_l": 0.3}, "maxP95TotalMs": 4000},
                                            "@gpt-4o-mini": {"maxCostPer1k": 0.25}}},
                 "regression": {"mode": "threshold", "maxQualityDrop": 0.02}}
                """#.utf8).write(to: good)
            let spec = try GateSpec.load(path: good.path)
            #expect(spec.features["summarize"]?["@gpt-4o-mini"]?.maxCostPer1k == 0.25)
            #expect(spec.regression?.mode == .threshold)
            let bad = directory.appendingPathComponent("bad.json")
            try Data(#"{"features": {"f": {"*": {"minAdherenceLower": 90}}}}"#.utf8).write(to: bad)
            #expect(throws: ReportError.invalidGateSpec(path: bad.path, reason: "features.f.*.minAdherenceLower must be within 0…1, got 90.0")) {
                try GateSpec.load(path: bad.path)
            }
        }
    }

    @Test("JUnit: one test case per (arm, gate), failures carry the numbers, and the XML parses")
    func junit() throws {
        var report = F.report()
        report.gates = GateEvaluator.evaluate(
            report: report,
            gates: GateSpec(features: ["*": ["*": GateThresholds(minAdherenceLower: 0.6, maxCostPer1k: 0.2)]]),
            baseline: nil)
        let xml = JUnitReportRenderer().render(report)
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == 10)
        #expect(xml.contains("tests=\"10\" failures=\"3\" errors=\"0\" skipped=\"2\""))
        #expect(xml.contains("<testcase classname=\"summarize.verbose@gpt-4o-mini\" name=\"maxCostPer1k\"><failure message=\"cost per 1,000 requests $0.3000 &gt; $0.2000\""))
        let parser = XMLParser(data: Data(xml.utf8))
        #expect(parser.parse(), "junit.xml must be well-formed")
    }
}
