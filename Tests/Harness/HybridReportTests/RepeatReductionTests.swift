import Foundation
import HybridCore
import HybridReport
import HybridStore
import Testing

/// Offline, the case is the unit: repeats of a case are reduced to one value before any interval or test, so
/// repeating outputs adds no evidence and a noisy model's A/A stays quiet.
@Suite("Repeats are reduced per case")
struct RepeatReductionTests {
    /// Every result of `results` repeated `k` times (repeat indices 0..<k), outputs unchanged.
    static func repeated(_ results: [ResultRecord], _ k: Int) -> [ResultRecord] {
        results.flatMap { result in
            (0..<k).map { index in
                var copy = result
                copy.key.repeatIndex = index
                return copy
            }
        }
    }

    static func report(_ results: [ResultRecord], options: ReportOptions = ReportOptions()) -> RunReport {
        ReportBuilder(options: options).build(runID: "r", run: nil, results: results)
    }

    /// (c) Duplicating every case's output k times leaves every p-value, interval and MDE as it was.
    @Test(arguments: [2, 5])
    func duplicatedOutputsChangeNoFigure(k: Int) throws {
        let single = Self.report(ReportFixtures.results())
        let repeated = Self.report(Self.repeated(ReportFixtures.results(), k))
        #expect(single.features.map(\.feature) == repeated.features.map(\.feature))
        for (one, many) in zip(single.features, repeated.features) {
            #expect(one.repeats == nil)
            let unit = try #require(many.repeats)
            #expect(unit.repeats == k && unit.cases == one.caseKeys?.count)
            #expect(many.comparisons.count == one.comparisons.count)
            for (a, b) in zip(one.comparisons, many.comparisons) {
                #expect(a.metric == b.metric && a.test == b.test && a.count == b.count)
                #expect(a.pValue == b.pValue && a.adjustedPValue == b.adjustedPValue)
                #expect(a.lower == b.lower && a.upper == b.upper && a.minimumDetectableEffect == b.minimumDetectableEffect)
                #expect(a.outcome == b.outcome)
            }
            for (a, b) in zip(one.arms, many.arms) {
                #expect(a.count * k == b.count)
                #expect(a.adherence?.rate == b.adherence?.rate)
                #expect(a.adherence?.lower == b.adherence?.lower && a.adherence?.upper == b.adherence?.upper)
                #expect(a.quality.map(\.lower) == b.quality.map(\.lower) && a.quality.map(\.upper) == b.quality.map(\.upper))
                #expect(a.constraints.map(\.proportion.lower) == b.constraints.map(\.proportion.lower))
                #expect(a.latency.totalMs?.mean == b.latency.totalMs?.mean)
                #expect(a.latency.totalMs?.standardError == b.latency.totalMs?.standardError)
            }
        }
    }

    /// The example: 10 cases, variant a fails 3, variant b fails 1 other; McNemar p = 0.625 at one repeat,
    /// and still 0.625 with n = 10 cases when the same outputs are repeated five times.
    @Test func mcNemarPairsCasesNotRepeats() throws {
        var results: [ResultRecord] = []
        for index in 0..<10 {
            let id = "c\(index)"
            results.append(ReportFixtures.result(caseID: id, arm: "a@m", passed: index >= 3))
            results.append(ReportFixtures.result(caseID: id, arm: "b@m", passed: index != 9))
        }
        let options = ReportOptions(pairs: [ArmPair("a@m", "b@m")])
        let single = try #require(Self.report(results, options: options).features.first?.comparisons.first)
        let feature = try #require(Self.report(Self.repeated(results, 5), options: options).features.first)
        let repeated = try #require(feature.comparisons.first)
        #expect(abs((single.pValue ?? 0) - 0.625) < 1e-12)
        #expect(repeated.pValue == single.pValue && repeated.count == 10 && repeated.test == "mcnemar-exact")
        let markdown = MarkdownReportRenderer().render(RunReport(
            runID: "r", run: nil, settings: ReportSettings(
                confidenceLevel: 0.95, alpha: 0.05, power: 0.8, bootstrapResamples: 100, bootstrapSeed: "0",
                bootstrapMaximumResampledCount: 2),
            features: [feature]))
        #expect(markdown.contains("n = 10 cases × 5 repeats"))
    }

    /// Pass share, pass^k and pass@k of one case that passed two of three repeats, and how the report names them.
    @Test func reducersGiveShareAllAndAny() throws {
        var results: [ResultRecord] = []
        for index in 0..<6 {
            for repeatIndex in 0..<3 {
                results.append(ReportFixtures.result(
                    caseID: "c\(index)", arm: "a@m", repeatIndex: repeatIndex, passed: repeatIndex < 2 || index.isMultiple(of: 2)))
            }
        }
        for (reducer, rate) in [(RepeatReducer.mean, 5.0 / 6), (.all, 0.5), (.any, 1.0)] {
            let feature = try #require(Self.report(results, options: ReportOptions(reducer: reducer)).features.first)
            let adherence = try #require(feature.arms.first?.adherence)
            #expect(abs(adherence.rate - rate) < 1e-12, "\(reducer)")
            #expect(adherence.units == 6 && adherence.total == 18)
            #expect(feature.repeats?.caption.contains(reducer.label) == true)
        }
    }

    /// (d) Offline A/A: a stochastic model answers both prompt variants alike (each case has its own pass
    /// probability, score and latency), three repeats per case, 10 or 40 cases. Over 200 experiments the share with
    /// any verdict stays within α plus Monte-Carlo error. Over 1,000 experiments the sign-flip p-values gave 3.1 % at
    /// 10 cases and 4.1 % at 40; the paired bootstrap's own p-values gave 13.7 % and 6.0 %.
    @Test(arguments: [(10, 3), (40, 3)])
    func aaWithAStochasticModelAndRepeatsRarelyClaimsAnything(_ shape: (cases: Int, repeats: Int)) {
        var options = ReportOptions()
        options.bootstrap.resamples = 1_000
        var rng = SplitMix64(seed: 2_026)
        func uniform() -> Double { rng.nextUnit() }
        let experiments = 200
        var withVerdict = 0
        for _ in 0..<experiments {
            var results: [ResultRecord] = []
            for index in 0..<shape.cases {
                let passRate = uniform() < 0.3 ? 0.5 : 0.9
                let quality = 0.3 + 0.5 * uniform()
                let latency = 300 + 900 * uniform()
                for arm in ["a@m", "b@m"] {
                    for repeatIndex in 0..<shape.repeats {
                        results.append(ReportFixtures.result(
                            caseID: "c\(index)", arm: arm, repeatIndex: repeatIndex, passed: uniform() < passRate,
                            score: quality + 0.2 * (uniform() - 0.5), totalMs: latency * (0.8 + 0.4 * uniform())))
                    }
                }
            }
            let report = Self.report(results, options: options)
            let claims = report.features.flatMap(\.comparisons).filter { $0.outcome != "no-detectable-difference" }
            if !claims.isEmpty {
                withVerdict += 1
            }
        }
        print("offline A/A \(shape): \(withVerdict) of \(experiments) experiments with a verdict")
        #expect(Double(withVerdict) / Double(experiments) <= 0.06, "\(withVerdict) of \(experiments)")
    }
}
