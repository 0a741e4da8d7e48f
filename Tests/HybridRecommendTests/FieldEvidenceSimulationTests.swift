import Foundation
import HybridConfig
import HybridRecommend
import HybridReport
import HybridStore
import Testing

/// The situations a team meets in its second month, simulated with known truth and read as users read reports
/// (after each daily upload): an experiment iterated under the same rollout seed, and one heavy install. Each must
/// give no verdict (and no rollout change) where the data cannot support one.
@Suite("Field evidence as a statistic")
struct FieldEvidenceSimulationTests {
    typealias Base = FieldVerdictSimulationTests

    struct Outcome {
        var experiments = 0
        var withVerdict = 0
        var withChange = 0
        var share: Double { Double(withVerdict) / Double(max(1, experiments)) }
    }

    /// Runs `experiments` A/A experiments made by `make`, looked at after each of `days` days.
    static func aa(
        experiments: Int, days: Int, builder: FieldReportBuilder,
        make: (Int) -> (simulation: FieldSimulation, prePeriod: [FieldEventRecord]),
        look: (FieldAnalysis) -> Void = { _ in }
    ) throws -> Outcome {
        let document = try Base.document()
        let recommender = FieldRecommender()
        var outcome = Outcome()
        for experiment in 0..<experiments {
            var (simulation, prePeriod) = make(experiment)
            var events: [FieldEventRecord] = []
            var claimed = false
            var changed = false
            for day in 0..<days {
                events += simulation.day(day)
                let analysis = builder.analysis(feature: "summarize", configVersion: 2, events: events, prePeriod: prePeriod)
                if !Base.claims(analysis).isEmpty { claimed = true }
                if try recommender.recommend(document: document, analysis: analysis, runID: "field-summarize-v2").changesRollout {
                    changed = true
                }
                if day == days - 1 { look(analysis) }
            }
            outcome.experiments += 1
            if claimed { outcome.withVerdict += 1 }
            if changed { outcome.withChange += 1 }
        }
        return outcome
    }

    /// Version 1 ran the same rollout (same seed, so the same installs in `treat`) with a variant 15 points worse
    /// on adherence; version 2 fixed it, and `treat` now serves exactly what the control does. 200 experiments of
    /// 400 installs, three daily looks. Earlier events in which an install was served `treat` must not become its
    /// covariate: with them, the old effect turns into a new one.
    @Test func anEarlierVersionsEffectDoesNotRideInTheCovariate() throws {
        let earlier = FieldSimulation.EarlierArm(variant: "bullet-v1", effect: .init(adherence: -0.15))
        func make(_ experiment: Int) -> (FieldSimulation, [FieldEventRecord]) {
            var simulation = FieldSimulation(installs: 400, seed: UInt64(70_000 + experiment))
            let prePeriod = simulation.prePeriod(days: 7, earlierArm: earlier)
            return (simulation, prePeriod)
        }
        var covered: [Double] = []
        var reductions: [Double] = []
        let outcome = try Self.aa(experiments: 200, days: 3, builder: Base.builder(), make: make) { analysis in
            if let p = analysis.prePeriod { covered.append(Double(p.installsWithCovariate) / Double(p.installs)) }
            reductions += analysis.comparisons.compactMap { $0.metric == "latencyMeanMs" ? $0.varianceReduction : nil }
        }
        // The trap, shown: the same experiments with every earlier event taken as a covariate (what the report did).
        let naive = try Self.aa(experiments: 50, days: 3, builder: Base.builder()) { experiment in
            let (simulation, prePeriod) = make(experiment)
            return (simulation, prePeriod.map { event in
                var event = event
                event.rolloutArm = nil
                event.variant = "concise"
                return event
            })
        }
        let share = covered.reduce(0, +) / Double(max(1, covered.count))
        let reduction = reductions.reduce(0, +) / Double(max(1, reductions.count))
        print("iterated experiment: verdicts in \(outcome.withVerdict) of 200 (rollout changes \(outcome.withChange)); "
            + "with every earlier event as covariate \(naive.withVerdict) of 50 (changes \(naive.withChange)); "
            + "installs with a covariate \(share), mean latency variance reduction \(reduction)")
        #expect(outcome.share <= 0.06, "verdicts in \(outcome.withVerdict) of 200")
        #expect(Double(outcome.withChange) / 200 <= 0.06, "rollout changes in \(outcome.withChange) of 200")
        #expect(naive.share >= 0.3, "the simulated trap no longer traps: \(naive.withVerdict) of 50")
        // The control's installs keep their covariate: about half the installs, and CUPED still works on them.
        #expect(share > 0.4 && share < 0.6)
        #expect(reduction > 0.1)
    }

    /// 20 to 40 installs per arm, one of them sending 100 times the median install's events (a kiosk, a test
    /// device), an A/A looked at daily for a week: any verdict in at most 6 % of 200 experiments. Without the
    /// weight cap, the heavy install's arm gets verdicts in a large share of experiments.
    @Test func oneHeavyInstallDoesNotDecideAnArm() throws {
        func make(_ experiment: Int) -> (FieldSimulation, [FieldEventRecord]) {
            let count = 40 + (experiment * 7) % 41
            var simulation = FieldSimulation(installs: count, seed: UInt64(90_000 + experiment))
            for index in simulation.installs.indices {
                simulation.installs[index].treated = index.isMultiple(of: 2)
                // 1 to 40 events a day, as in the report that found this.
                simulation.installs[index].eventsPerDay = 1 + 39 * Double((index * 37 + experiment * 11) % 100) / 99
            }
            let median = simulation.installs.map(\.eventsPerDay).sorted()[count / 2]
            // The heavy one is in `treat` in half the experiments, in the control in the other half.
            simulation.installs[experiment % 2].eventsPerDay = 100 * median
            return (simulation, [])
        }
        var effective: [Double] = []
        let outcome = try Self.aa(experiments: 200, days: 7, builder: Base.builder(), make: make) { analysis in
            if let units = analysis.comparisons.first(where: { $0.metric == "adherence" })?.installs {
                effective.append(min(units.armEffective ?? 0, units.controlEffective ?? 0) / Double(min(units.arm, units.control)))
            }
        }
        var uncapped = Base.builder()
        uncapped.capsInstallWeights = false
        let without = try Self.aa(experiments: 50, days: 7, builder: uncapped, make: make)
        print("one heavy install: verdicts in \(outcome.withVerdict) of 200 (changes \(outcome.withChange)); "
            + "without the cap \(without.withVerdict) of 50 (changes \(without.withChange)); "
            + "smaller group's n_eff / installs \(effective.reduce(0, +) / Double(max(1, effective.count)))")
        #expect(outcome.share <= 0.06, "verdicts in \(outcome.withVerdict) of 200")
        #expect(Double(outcome.withChange) / 200 <= 0.06, "rollout changes in \(outcome.withChange) of 200")
        #expect(without.share >= 0.2, "the simulated heavy install no longer misleads an uncapped report: \(without.withVerdict) of 50")
    }
}

/// The look history: a verdict seen at an earlier look stays, because the always-valid p-value runs as a minimum.
@Suite struct FieldLookHistoryTests {
    @Test func aVerdictSeenAtAnEarlierLookIsNotSilentlyGone() throws {
        // `treat` is worse for three days, then fixed; the report is read on day 3 and on day 15 (over all events).
        var simulation = FieldSimulation(installs: 800, effect: .init(adherence: -0.12), seed: 314)
        var events = (0..<3).flatMap { simulation.day($0) }
        let builder = FieldVerdictSimulationTests.builder()
        let first = builder.analysis(feature: "summarize", configVersion: 2, events: events)
        let firstAdherence = try #require(first.comparisons.first { $0.metric == "adherence" })
        #expect(firstAdherence.verdict == "worse")
        let look = FieldLook(
            runID: "field-summarize-v2", events: events.count, recordedAt: Date(timeIntervalSince1970: 0),
            entries: FieldReportBuilder.lookEntries(first.comparisons))
        simulation.effect = .init()
        events += (3..<15).flatMap { simulation.day($0) }
        // On all events alone the diluted effect is not claimed; the running verdict keeps what was seen, and
        // recommend acts on it.
        let alone = try #require(builder.analysis(feature: "summarize", configVersion: 2, events: events).comparisons.first { $0.metric == "adherence" })
        #expect(alone.verdict == "no detectable difference", "\(alone)")
        let running = builder.analysis(feature: "summarize", configVersion: 2, events: events, history: [look])
        let adherence = try #require(running.comparisons.first { $0.metric == "adherence" })
        #expect(adherence.verdict == "worse" && adherence.runningLooks == 2)
        #expect(adherence.sequentialPValue == min(alone.sequentialPValue ?? 1, firstAdherence.sequentialPValue ?? 1))
        #expect((adherence.sequentialUpper ?? 0) <= (alone.sequentialUpper ?? 0))
        let recommendation = try FieldRecommender().recommend(
            document: FieldVerdictSimulationTests.document(), analysis: running, runID: "field-summarize-v2")
        #expect(recommendation.changesRollout)
    }
}
