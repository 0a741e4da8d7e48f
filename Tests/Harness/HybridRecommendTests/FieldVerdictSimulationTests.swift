import Foundation
import HybridCalibration
import HybridConfig
import HybridConfigTools
import HybridRecommend
import HybridReport
import HybridStore
import Testing

/// The field report tested as a statistic on the calibration zoo's seeded installs (`FieldPopulation`): what the
/// zoo's false-decision shares rest on, checked piece by piece. The install is the unit of randomisation, so the
/// report must be honest about installs, not events.
@Suite("Field verdicts as a statistic")
struct FieldVerdictSimulationTests {
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

    static func population(
        installs: Int, days: Int, effect: FieldScenario.Effect = .init(), seed: UInt64,
        configure: (inout FieldScenario) -> Void = { _ in }
    ) -> FieldPopulation {
        var scenario = FieldScenario(name: "test", installs: installs, days: days)
        scenario.effect = effect
        configure(&scenario)
        return FieldPopulation(scenario, seed: seed)
    }

    /// Every event of `days` daily looks.
    static func events(_ population: inout FieldPopulation, days: Int) -> [FieldEventRecord] {
        (0..<days).flatMap { population.events(look: $0) }
    }

    /// A known effect and the experiment size it is tested at.
    struct PowerCase: Sendable, CustomTestStringConvertible {
        var effect: FieldScenario.Effect
        var metric: String
        var verdict: String
        var installs: Int
        var days: Int
        var experiments: Int
        var testDescription: String { "\(metric) at \(installs) installs" }
    }

    /// Power: +10 percentage points of adherence at 800 installs, +20 % mean latency at 2,000 (installs differ
    /// two-fold in device speed, so latency needs more of them): each found in at least 80 % of the experiments, and
    /// the report's MDE predicts the share found within a few points.
    @Test(arguments: [
        PowerCase(effect: .init(adherence: 0.10), metric: "adherence", verdict: "better", installs: 800, days: 3, experiments: 60),
        PowerCase(effect: .init(latency: 0.20), metric: "latencyMeanMs", verdict: "worse", installs: 2_000, days: 2, experiments: 40),
    ])
    func aRealEffectIsFoundAsOftenAsTheMDEPredicts(_ power: PowerCase) {
        let (metric, verdict, experiments) = (power.metric, power.verdict, power.experiments)
        var found = 0
        var predicted = 0.0
        for experiment in 0..<experiments {
            var population = Self.population(
                installs: power.installs, days: power.days, effect: power.effect, seed: UInt64(50_000 + experiment))
            let events = Self.events(&population, days: power.days)
            let truth = metric == "adherence" ? population.expectedAdherenceDifference : population.expectedLatencyDifference
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

    /// CUPED on a week of history from before any rollout: every install has its covariate whatever its arm, and a
    /// device's speed persists, so its earlier latency explains much of its latency now.
    @Test func cleanHistoryGivesEveryInstallACovariate() throws {
        var population = Self.population(installs: 400, days: 3, seed: 11) { $0.prePeriodDays = 7 }
        let prePeriod = population.prePeriod()
        let analysis = Self.builder().analysis(
            feature: "summarize", configVersion: 2, events: Self.events(&population, days: 3), prePeriod: prePeriod)
        let pre = try #require(analysis.prePeriod)
        #expect(Double(pre.installsWithCovariate) / Double(pre.installs) > 0.95, "\(pre)")
        let latency = try #require(analysis.comparisons.first { $0.metric == "latencyMeanMs" })
        #expect(latency.intervalMethod == "delta-method+cuped")
        #expect((latency.varianceReduction ?? 0) > 0.3, "\(latency)")
    }

    /// An iterated experiment: version 1 ran `treat` 15 points worse under the same seed. Events served under that
    /// rollout are not covariates (they carry last version's effect, and only for the treated installs); taken as
    /// covariates anyway, as the report once did, they turn the old effect into a new one.
    @Test func anEarlierRolloutsEventsAreNotCovariates() throws {
        var verdicts = (clean: 0, naive: 0)
        let experiments = 40
        for experiment in 0..<experiments {
            var population = Self.population(installs: 400, days: 3, seed: UInt64(70_000 + experiment)) {
                $0.linkedUsage = true
                $0.earlierRollout = .init(adherence: -0.15)
            }
            let prePeriod = population.prePeriod()
            let events = Self.events(&population, days: 3)
            let naive = prePeriod.map { event in
                var event = event
                event.rolloutArm = nil
                event.bucket = nil
                return event
            }
            let clean = Self.builder().analysis(feature: "summarize", configVersion: 2, events: events, prePeriod: prePeriod)
            let trapped = Self.builder().analysis(feature: "summarize", configVersion: 2, events: events, prePeriod: naive)
            #expect(clean.prePeriod?.installsWithCovariate == 0)
            if !Self.claims(clean).isEmpty { verdicts.clean += 1 }
            if !Self.claims(trapped).isEmpty { verdicts.naive += 1 }
        }
        print("iterated experiment: verdicts in \(verdicts.clean) of \(experiments); with the earlier rollout's events as covariates \(verdicts.naive)")
        #expect(verdicts.clean <= 3)
        #expect(verdicts.naive >= experiments / 3, "the simulated trap no longer traps: \(verdicts.naive)")
    }

    /// Three treated installs sending 4,000 events each (the median sends about 20) among 40: uncapped, they are
    /// nearly the whole arm (Kish's n_eff about 3); capped at three median installs each, the arm keeps most of its
    /// installs' weight, and a week of daily looks decides nothing (the zoo's row, at 200 experiments).
    @Test func heavyInstallsWeighAsAFewMedianInstalls() throws {
        let scenario = try #require(CalibrationZoo.scenarios().compactMap { scenario -> FieldScenario? in
            if case .field(let field) = scenario, field.fixedHeavyTreated > 0 { return field }
            return nil
        }.first)
        var population = FieldPopulation(scenario, seed: 90_000)
        let events = Self.events(&population, days: scenario.days)
        var uncapped = Self.builder()
        uncapped.capsInstallWeights = false
        func treatEffective(_ builder: FieldReportBuilder) -> Double? {
            builder.analysis(feature: "summarize", configVersion: 2, events: events)
                .comparisons.first { $0.metric == "adherence" }?.installs?.armEffective
        }
        let capped = try #require(treatEffective(Self.builder()))
        let plain = try #require(treatEffective(uncapped))
        print("three heavy installs of 40: treat's n_eff \(capped) capped, \(plain) uncapped")
        #expect(plain < 4 && capped > 10, "n_eff \(capped) capped, \(plain) uncapped")
        let experiment = FieldExperiment(scenario, document: try HybridConfigDocument.bundledDefaults().document)
        let decided = try (0..<20).filter { try !experiment.run(seed: UInt64(90_000 + $0)).falseDecisions.isEmpty }.count
        #expect(decided <= 2, "false decisions in \(decided) of 20")
    }

    static func claims(_ analysis: FieldAnalysis) -> [FieldComparison] {
        analysis.comparisons.filter { $0.verdict == "better" || $0.verdict == "worse" }
    }

    /// Segments: each value of the label is judged on its own installs, Holm across segments.
    @Test func segmentsAreJudgedOnTheirOwnInstalls() throws {
        var population = Self.population(installs: 400, days: 3, effect: .init(latency: 0.5), seed: 77)
        let events = Self.events(&population, days: 3)
        var builder = Self.builder()
        builder.segmentLabel = "deviceClass"
        let analysis = builder.analysis(feature: "summarize", configVersion: 2, events: events)
        let segments = try #require(analysis.segments)
        #expect(segments.map(\.value) == ["older", "recent"])
        for segment in segments {
            #expect(segment.judged)
            let latency = try #require(segment.comparisons.first { $0.metric == "latencyMeanMs" })
            #expect(latency.verdict == "worse" && latency.segment == "deviceClass=\(segment.value)")
            #expect((latency.installs?.arm ?? 0) < 400)
        }
        #expect(Self.markdown(analysis).contains("installs (events)"))
    }

    /// A segment with fewer installs than the minimum is shown but never judged.
    @Test func aThinSegmentIsShownNotJudged() throws {
        var population = Self.population(installs: 400, days: 3, seed: 78)
        var events = Self.events(&population, days: 3)
        let tablets = Set(events.map(\.installID)).sorted().prefix(6)
        for index in events.indices where tablets.contains(events[index].installID) {
            events[index].labels["deviceClass"] = "tablet"
        }
        var builder = Self.builder()
        builder.segmentLabel = "deviceClass"
        let analysis = builder.analysis(feature: "summarize", configVersion: 2, events: events)
        let tablet = try #require(analysis.segments?.last)
        #expect(tablet.value == "tablet" && !tablet.judged)
        #expect(tablet.comparisons.allSatisfy { $0.verdict.hasPrefix("not judged") || $0.verdict == "descriptive" })
        #expect(Self.markdown(analysis).contains("#### `deviceClass` = `tablet` (shown, not judged"))
    }

    /// The Markdown a field report of `analysis` renders.
    static func markdown(_ analysis: FieldAnalysis) -> String {
        var report = RunReport(
            runID: "field-summarize-v2", run: nil,
            settings: ReportSettings(
                confidenceLevel: 0.95, alpha: 0.05, power: 0.8, bootstrapResamples: 100, bootstrapSeed: "0",
                bootstrapMaximumResampledCount: 2),
            features: [])
        report.field = analysis
        return MarkdownReportRenderer().render(report)
    }

    /// An install that sends many events weighs as one unit: the report's installs and events are both named.
    @Test func theReportNamesItsUnit() throws {
        var population = Self.population(installs: 120, days: 1, seed: 5)
        let analysis = Self.builder().analysis(feature: "summarize", configVersion: 2, events: population.events(look: 0))
        let adherence = try #require(analysis.comparisons.first { $0.metric == "adherence" })
        let units = try #require(adherence.installs)
        #expect(units.arm + units.control == analysis.arms.reduce(0) { $0 + $1.installs })
        #expect(units.armEvents + units.controlEvents == analysis.arms.reduce(0) { $0 + $1.events })
        #expect(adherence.intervalMethod == "delta-method")
        #expect(analysis.method.contains("The install is the unit"))
        #expect(analysis.arms.allSatisfy { $0.adherence?.units == $0.installs })
    }
}

/// The look history: a verdict seen at an earlier look stays, because the always-valid p-value runs as a minimum;
/// a look that was not judged is not kept.
@Suite struct FieldLookHistoryTests {
    @Test func aVerdictSeenAtAnEarlierLookIsNotSilentlyGone() throws {
        // `treat` is worse for three days, then fixed; the report is read on day 3 and on day 15 (over all events).
        var population = FieldVerdictSimulationTests.population(installs: 800, days: 15, effect: .init(adherence: -0.12), seed: 314)
        var events = FieldVerdictSimulationTests.events(&population, days: 3)
        let builder = FieldVerdictSimulationTests.builder()
        let (first, entries) = builder.analysisWithLook(feature: "summarize", configVersion: 2, events: events)
        let firstAdherence = try #require(first.comparisons.first { $0.metric == "adherence" })
        #expect(firstAdherence.verdict == "worse")
        let look = FieldLook(runID: "field-summarize-v2", events: events.count, recordedAt: Date(timeIntervalSince1970: 0), entries: entries)
        population.scenario.effect = .init()
        events += (3..<15).flatMap { population.events(look: $0) }
        // On all events alone the diluted effect is not claimed; the running verdict keeps what was seen, and
        // recommend acts on it.
        let alone = try #require(builder.analysis(feature: "summarize", configVersion: 2, events: events).comparisons.first { $0.metric == "adherence" })
        #expect(alone.verdict == "no detectable difference", "\(alone)")
        let running = builder.analysis(feature: "summarize", configVersion: 2, events: events, history: [look])
        let adherence = try #require(running.comparisons.first { $0.metric == "adherence" })
        #expect(adherence.verdict == "worse" && adherence.runningLooks == 2)
        #expect(adherence.sequentialPValue == min(alone.sequentialPValue ?? 1, firstAdherence.sequentialPValue ?? 1))
        let recommendation = try FieldRecommender().recommend(
            document: FieldVerdictSimulationTests.document(), analysis: running, runID: "field-summarize-v2")
        #expect(recommendation.changesRollout)
    }

    /// A look with fewer installs per arm than the minimum, or under a failing sample-ratio check, keeps nothing.
    @Test func looksThatWereNotJudgedAreNotKept() throws {
        var population = FieldVerdictSimulationTests.population(installs: 30, days: 1, seed: 9)
        let thin = population.events(look: 0)
        #expect(FieldVerdictSimulationTests.builder().analysisWithLook(feature: "summarize", configVersion: 2, events: thin).look.isEmpty)
        var broken = FieldVerdictSimulationTests.population(installs: 400, days: 1, seed: 10)
        let events = broken.events(look: 0).filter { $0.rolloutArm == nil || $0.installID.hasSuffix("0") == false }
        var skewed = FieldReportBuilder(percentages: ["treat": 80])
        skewed.describesQuantiles = false
        let (analysis, look) = skewed.analysisWithLook(feature: "summarize", configVersion: 2, events: events)
        #expect(!analysis.effectsReportable)
        #expect(look.isEmpty)
    }

    /// Two looks whose always-valid intervals do not overlap disagree: the comparison is not judged.
    @Test func disjointLooksAreInconsistentNotJudged() throws {
        var population = FieldVerdictSimulationTests.population(installs: 800, days: 3, seed: 12)
        let events = FieldVerdictSimulationTests.events(&population, days: 3)
        let builder = FieldVerdictSimulationTests.builder()
        let (analysis, entries) = builder.analysisWithLook(feature: "summarize", configVersion: 2, events: events)
        let adherence = try #require(entries.first { $0.metric == "adherence" })
        var far = adherence
        far.lower = adherence.upper + 0.5
        far.upper = adherence.upper + 0.6
        far.pValue = 1e-6
        let look = FieldLook(runID: "r", events: events.count - 1, recordedAt: Date(timeIntervalSince1970: 0), entries: [far])
        let running = builder.analysis(feature: "summarize", configVersion: 2, events: events, history: [look])
        let comparison = try #require(running.comparisons.first { $0.metric == "adherence" })
        #expect(comparison.verdict == "inconsistent across looks: not judged", "\(comparison.verdict)")
        #expect(analysis.comparisons.count == running.comparisons.count)
    }
}
