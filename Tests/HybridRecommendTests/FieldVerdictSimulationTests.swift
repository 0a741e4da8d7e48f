import Foundation
import HybridConfig
import HybridRecommend
import HybridReport
import HybridStore
import Testing

/// The field report tested as a statistic: seeded experiments whose truth is known, read the way users read them
/// (after every day's upload), counting how often a verdict or a recommendation appears. The install is the unit of
/// randomisation, so the report must be honest about installs, not events.
@Suite("Field verdicts as a statistic")
struct FieldVerdictSimulationTests {
    static let alpha = 0.05

    static func builder() -> FieldReportBuilder {
        var builder = FieldReportBuilder(percentages: ["treat": 50])
        builder.describesQuantiles = false
        return builder
    }

    static func document() throws -> HybridConfigDocument {
        var document = try HybridConfigDocument.bundledDefaults().document
        document.rollouts["summarize"] = RolloutConfig(seed: "sim", arms: [RolloutArm(name: "treat", percentage: 50)])
        return document
    }

    static func claims(_ analysis: FieldAnalysis) -> [FieldComparison] {
        analysis.comparisons.filter { $0.verdict == "better" || $0.verdict == "worse" }
    }

    /// (a) A/A: 200 experiments of 200 clustered installs, looked at after each of 7 days. The share of experiments
    /// with any verdict at any look must stay within α plus Monte-Carlo error (≤ 6 %), and `recommend` must change
    /// the rollout no more often. Counting events as trials, the same set-up gave verdicts in most experiments.
    @Test func aaExperimentsLookedAtDailyRarelyClaimAnything() throws {
        let document = try Self.document()
        let recommender = FieldRecommender()
        var withVerdict = 0
        var withChange = 0
        var reductions: [Double] = []
        let experiments = 200
        for experiment in 0..<experiments {
            var simulation = FieldSimulation(installs: 200, seed: UInt64(1_000 + experiment))
            // Half the experiments have a week of pre-period events, so CUPED is exercised too.
            let prePeriod = experiment.isMultiple(of: 2) ? simulation.prePeriod(days: 7) : []
            var events: [FieldEventRecord] = []
            var claimed = false
            var changed = false
            for day in 0..<7 {
                events += simulation.day(day)
                let analysis = Self.builder().analysis(
                    feature: "summarize", configVersion: 2, events: events, prePeriod: prePeriod)
                if !Self.claims(analysis).isEmpty { claimed = true }
                let recommendation = try recommender.recommend(
                    document: document, analysis: analysis, runID: "field-summarize-v2")
                if recommendation.changesRollout { changed = true }
                if day == 6, !prePeriod.isEmpty {
                    reductions += analysis.comparisons.compactMap { $0.metric == "latencyMeanMs" ? $0.varianceReduction : nil }
                }
            }
            if claimed { withVerdict += 1 }
            if changed { withChange += 1 }
        }
        let share = Double(withVerdict) / Double(experiments)
        print("field A/A: \(withVerdict) of \(experiments) experiments with a verdict, \(withChange) with a rollout change")
        #expect(share <= 0.06, "A/A experiments with a verdict: \(withVerdict) of \(experiments)")
        #expect(Double(withChange) / Double(experiments) <= 0.06, "A/A experiments with a rollout change: \(withChange)")
        // A device's speed persists, so its pre-period latency explains much of its in-period latency.
        let meanReduction = reductions.reduce(0, +) / Double(max(1, reductions.count))
        print("field A/A: mean CUPED variance reduction of mean latency \(meanReduction)")
        #expect(reductions.count == experiments / 2 && meanReduction > 0.3, "mean CUPED variance reduction \(meanReduction)")
    }

    /// A known effect and the experiment size it is tested at.
    struct PowerCase: Sendable, CustomTestStringConvertible {
        var effect: FieldSimulation.Effect
        var metric: String
        var verdict: String
        var installs: Int
        var days: Int
        var experiments: Int
        var testDescription: String { "\(metric) at \(installs) installs" }
    }

    /// (b) Power: +10 percentage points of adherence at 800 installs, +20 % mean latency at 2,000 (installs differ
    /// two-fold in device speed, so latency needs more of them): each found in at least 80 % of the experiments, and
    /// the report's MDE predicts the share found within a few points.
    @Test(arguments: [
        PowerCase(effect: .init(adherence: 0.10), metric: "adherence", verdict: "better", installs: 800, days: 3, experiments: 200),
        PowerCase(effect: .init(latency: 0.20), metric: "latencyMeanMs", verdict: "worse", installs: 2_000, days: 2, experiments: 100),
    ])
    func aRealEffectIsFoundAsOftenAsTheMDEPredicts(_ power: PowerCase) {
        let (effect, metric, verdict, experiments) = (power.effect, power.metric, power.verdict, power.experiments)
        var found = 0
        var predicted = 0.0
        for experiment in 0..<experiments {
            var simulation = FieldSimulation(installs: power.installs, effect: effect, seed: UInt64(50_000 + experiment))
            let events = (0..<power.days).flatMap { simulation.day($0) }
            let truth = metric == "adherence" ? simulation.expectedAdherenceDifference : simulation.expectedLatencyDifference
            let analysis = Self.builder().analysis(feature: "summarize", configVersion: 2, events: events)
            guard let comparison = analysis.comparisons.first(where: { $0.metric == metric }),
                let mde = comparison.minimumDetectableEffect, let se = comparison.standardError
            else {
                Issue.record("no \(metric) comparison")
                return
            }
            if comparison.verdict == verdict { found += 1 }
            // The MDE is the effect found with 80 % power; power at the true effect δ is Φ((δ − MDE)/SE + z₀.₈).
            predicted += NormalDistribution.cdf((abs(truth) - mde) / se + NormalDistribution.quantile(0.8))
        }
        let share = Double(found) / Double(experiments)
        predicted /= Double(experiments)
        print("field power, \(power.testDescription): found in \(found) of \(experiments), MDE predicts \(predicted)")
        #expect(share >= 0.8, "\(metric): found in \(found) of \(experiments)")
        #expect(abs(share - predicted) <= 0.07, "\(metric): power \(share), predicted by the MDE \(predicted)")
    }

    /// Segments: each value of the label is judged on its own installs, Holm across segments, and a segment with
    /// fewer installs than the minimum is shown but never judged.
    @Test func segmentsAreJudgedOnTheirOwnInstalls() throws {
        var simulation = FieldSimulation(installs: 400, effect: .init(latency: 0.5), seed: 77)
        // A handful of installs report a third device class.
        for index in 0..<6 { simulation.installs[index].deviceClass = "tablet" }
        let events = (0..<3).flatMap { simulation.day($0) }
        var builder = Self.builder()
        builder.segmentLabel = "deviceClass"
        let analysis = builder.analysis(feature: "summarize", configVersion: 2, events: events)
        let segments = try #require(analysis.segments)
        #expect(segments.map(\.value) == ["older", "recent", "tablet"])
        let tablet = try #require(segments.last)
        #expect(!tablet.judged)
        #expect(tablet.comparisons.allSatisfy { $0.verdict.hasPrefix("not judged") || $0.verdict == "descriptive" })
        for segment in segments.prefix(2) {
            #expect(segment.judged)
            let latency = try #require(segment.comparisons.first { $0.metric == "latencyMeanMs" })
            #expect(latency.verdict == "worse" && latency.segment == "deviceClass=\(segment.value)")
            #expect((latency.installs?.arm ?? 0) < 400)
        }
        var report = RunReport(
            runID: "field-summarize-v2", run: nil,
            settings: ReportSettings(
                confidenceLevel: 0.95, alpha: 0.05, power: 0.8, bootstrapResamples: 100, bootstrapSeed: "0",
                bootstrapMaximumResampledCount: 2),
            features: [])
        report.field = analysis
        let markdown = MarkdownReportRenderer().render(report)
        #expect(markdown.contains("#### `deviceClass` = `tablet` (shown, not judged"))
        #expect(markdown.contains("installs (events)"))
    }

    /// An install that sends many events weighs as one unit: the report's installs and events are both named.
    @Test func theReportNamesItsUnit() throws {
        var simulation = FieldSimulation(installs: 120, seed: 5)
        let analysis = Self.builder().analysis(feature: "summarize", configVersion: 2, events: simulation.day(0))
        let adherence = try #require(analysis.comparisons.first { $0.metric == "adherence" })
        let units = try #require(adherence.installs)
        #expect(units.arm + units.control == analysis.arms.reduce(0) { $0 + $1.installs })
        #expect(units.armEvents + units.controlEvents == analysis.arms.reduce(0) { $0 + $1.events })
        #expect(adherence.intervalMethod == "delta-method")
        #expect(analysis.method.contains("The install is the unit"))
        #expect(analysis.arms.allSatisfy { $0.adherence?.units == $0.installs })
    }
}
