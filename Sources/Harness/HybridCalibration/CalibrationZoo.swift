import Foundation
import HybridConfig
import HybridConfigTools
import HybridRecommend
public import HybridReport

/// The scenarios every decision path of the loop is calibrated on, and the runner that counts, per scenario, the
/// experiments with a false decision (any verdict, promotion, roll-back, override or switch the truth does not
/// support) and, where there is a true effect, the experiments that found it.
public enum CalibrationZoo {
    /// One scenario of the zoo.
    public enum Scenario: Sendable {
        case field(FieldScenario)
        case offline(OfflineScenario)
        case inputRule(InputRuleScenario)
        case hedge(HedgeScenario)

        public var name: String {
            switch self {
            case .field(let scenario): scenario.name
            case .offline(let scenario): scenario.name
            case .inputRule(let scenario): scenario.name
            case .hedge(let scenario): scenario.name
            }
        }

        /// A `recommend --by-input` row.
        public var isInputRule: Bool { if case .inputRule = self { true } else { false } }
        /// A `recommend --hedge-after auto` row.
        public var isHedge: Bool { if case .hedge = self { true } else { false } }

        public var isNull: Bool {
            switch self {
            case .field(let scenario): scenario.isNull
            case .offline(let scenario): scenario.isNull
            case .inputRule(let scenario): scenario.isNull
            case .hedge(let scenario): scenario.isNull
            }
        }

        /// The power a powered row must reach (`hybrid-bench calibrate` exits 1 below it); nil for none.
        public var powerTarget: Double? {
            switch self {
            case .field(let scenario): scenario.powerTarget
            case .offline(let scenario): scenario.powerTarget
            case .inputRule(let scenario): scenario.powerTarget
            case .hedge(let scenario): scenario.powerTarget
            }
        }
    }

    /// What one experiment of a scenario decided: a false decision (in words), whether it found the effect (nil: the
    /// row's question does not apply), and whether the row's anchor design found it on the same data (nil: no anchor).
    struct Verdict {
        var falseDecision: String?
        var detected: Bool?
        var anchor: Bool?
        /// Field rows: the anchor with Holm over the report's metrics.
        var anchorHolm: Bool?
    }

    /// One scenario's counts over its experiments.
    public struct Row: Sendable {
        public var scenario: String
        public var isNull: Bool
        public var experiments: Int
        /// Experiments with at least one false decision.
        public var falseDecisions: Int
        /// Experiments that reached the decision the truth calls for (0 for a null scenario).
        public var detections: Int
        /// One false decision, for the reader who wants to know what went wrong.
        public var example: String?
        /// Experiments the row's question does not apply to, left out of its power: the honesty row asks whether a
        /// proposed rule's intervals held, which an experiment that proposed nothing cannot answer.
        public var notApplicable = 0
        /// Experiments in which the row's anchor found the effect on the same data (nil: the row has no anchor): the
        /// most power a valid design could have there (see `docs/statistics.md` for each row's anchor).
        public var anchorDetections: Int?
        /// Field rows: the same fixed-horizon z-tests with Holm over the report's judged metrics at α 0.05 (the
        /// family the report spends its α over), read once at the last look.
        public var anchorHolmDetections: Int?
        /// The power the row must reach; nil for none.
        public var powerTarget: Double?
        /// The share of the anchor's power the row must reach; nil for none.
        public var anchorShareTarget: Double?

        /// The false-decision share with its Wilson 95 % interval.
        public var falseShare: WilsonInterval? { WilsonInterval(successes: falseDecisions, trials: experiments) }
        /// The power with its Wilson 95 % interval; nil for a null scenario.
        public var power: WilsonInterval? {
            isNull ? nil : WilsonInterval(successes: detections, trials: experiments - notApplicable)
        }
        /// The anchor's power with its Wilson 95 % interval, over the experiments the row's power counts.
        public var anchorPower: WilsonInterval? {
            anchorDetections.flatMap { WilsonInterval(successes: $0, trials: experiments - notApplicable) }
        }
        /// Whether a powered row's power is below its target.
        public var missesTarget: Bool {
            guard let power else { return false }
            if let target = powerTarget, power.proportion < target { return true }
            if let share = anchorShareTarget, let anchor = anchorPower, power.proportion < share * anchor.proportion { return true }
            return false
        }
    }

    /// The full zoo: every situation `docs/statistics.md` lists, null and with an effect.
    public static func scenarios() -> [Scenario] {
        var list: [Scenario] = []
        list.append(.field(FieldScenario(name: "field A/A, 200 installs, 7 daily looks", installs: 200, days: 7)))
        var staggered = FieldScenario(name: "field A/A, installs arriving over 7 days, a look every 3 h", installs: 200, days: 7)
        staggered.arrivalDays = 7
        staggered.looksPerDay = 8
        list.append(.field(staggered))
        var linked = FieldScenario(name: "field A/A, linked usage, a week of clean history (CUPED)", installs: 400, days: 3)
        linked.linkedUsage = true
        linked.prePeriodDays = 7
        list.append(.field(linked))
        var iterated = linked
        iterated.name = "iterated: v1 treat 15 pp worse, v2 identical, same seed, linked usage"
        iterated.earlierRollout = .init(adherence: -0.15)
        list.append(.field(iterated))
        for share in [0.01, 0.05, 0.10] {
            var heavy = FieldScenario(name: "field A/A, \(Int(share * 100)) % heavy installs (100× usage)", installs: 200, days: 7)
            heavy.heavyShare = share
            list.append(.field(heavy))
        }
        var three = FieldScenario(name: "field A/A, 40 installs, 3 treated send 4,000 events each", installs: 40, days: 7)
        three.fixedHeavyTreated = 3
        three.alternateArms = true
        list.append(.field(three))
        var usage = FieldScenario(name: "treatment doubles usage only, linked usage", installs: 400, days: 7)
        usage.linkedUsage = true
        usage.effect = .init(usage: 1)
        list.append(.field(usage))
        var incident = FieldScenario(name: "field A/A, sample-ratio incident on days 1–2, then fixed", installs: 200, days: 7)
        incident.incidentDays = 2
        list.append(.field(incident))
        var floor = FieldScenario(name: "recommend --by daily: two device classes exactly at the 0.70 floor", installs: 40, days: 7)
        floor.segmentsOnly = true
        floor.fixedPassRate = 0.70
        floor.recommendsSegments = true
        list.append(.field(floor))
        list += planned(effect: 0)
        var kiosk = FieldScenario(name: "recommend --by daily: 19 installs at 0.78, one kiosk with 2,000 events at 0.35", installs: 40, days: 7)
        kiosk.segmentsOnly = true
        kiosk.fixedPassRate = 0.78
        kiosk.kioskEvents = 2_000
        kiosk.recommendsSegments = true
        list.append(.field(kiosk))
        list.append(.offline(OfflineScenario(name: "offline identical variants, 10 cases", cases: 10, repeats: 1)))
        list.append(.offline(OfflineScenario(name: "offline identical variants, 10 cases × 3 repeats", cases: 10, repeats: 3)))
        list.append(.offline(OfflineScenario(name: "offline identical variants, 40 cases × 3 repeats", cases: 40, repeats: 3)))
        list.append(.inputRule(InputRuleScenario(
            name: "recommend --by-input: device fails 60 % independent of every feature, 60 cases × 2 tiers", kind: .null, cases: 60)))
        list.append(.hedge(HedgeScenario(
            name: "recommend --hedge-after auto: device 60 ms ± 20 % with no tail, cloud 250 ms, 80 cases", device: .noTail)))
        list.append(.hedge(HedgeScenario(
            name: "recommend --hedge-after auto: device 60 ms ± 20 %, one case of 80 at 2.5 s, cloud 250 ms", device: .oneOutlier)))
        list += powered()
        return list
    }

    /// Scenarios with a true effect: how often the loop finds it.
    static func powered() -> [Scenario] {
        var list: [Scenario] = []
        var adherence = FieldScenario(name: "power: +10 pp adherence, 800 installs, 3 daily looks", installs: 800, days: 3)
        adherence.effect = .init(adherence: 0.10)
        list.append(.field(adherence))
        var worse = FieldScenario(name: "power: −10 pp adherence, installs arriving over 7 days, a look every 3 h", installs: 400, days: 7)
        worse.effect = .init(adherence: -0.10)
        worse.arrivalDays = 7
        worse.looksPerDay = 8
        list.append(.field(worse))
        // The same experiment planned: 7 daily looks with adherence primary, still read every 3 hours (the readings
        // between planned looks decide by the always-valid test at α·0.1). The 85 % target is the planned design's:
        // the always-valid design above cannot reach it (docs/statistics.md).
        var plannedWorse = worse
        plannedWorse.name = "power: −10 pp adherence, installs arriving over 7 days, read every 3 h, 7 planned daily looks (adherence primary)"
        plannedWorse.design = Self.plannedDesign(days: 7, looks: 7, primary: "adherence")
        plannedWorse.powerTarget = 0.85
        list.append(.field(plannedWorse))
        list += planned(effect: -0.08)
        var latency = FieldScenario(name: "power: +20 % mean latency, 1,000 installs, 2 daily looks", installs: 1_000, days: 2)
        latency.effect = .init(latency: 0.20)
        list.append(.field(latency))
        var plannedLatency = latency
        plannedLatency.name = "power: +20 % mean latency, 1,000 installs, 2 planned daily looks (latency primary)"
        plannedLatency.design = Self.plannedDesign(days: 2, looks: 2, primary: "latencyMeanMs")
        plannedLatency.powerTarget = 0.85
        list.append(.field(plannedLatency))
        var better = OfflineScenario(name: "power: offline variant b fails 20 pp less, 40 cases × 3 repeats", cases: 40, repeats: 3)
        better.improvement = 0.20
        list.append(.offline(better))
        var cheaper = OfflineScenario(name: "power: offline model as good at ¼ the price, 40 cases × 3 repeats", cases: 40, repeats: 3)
        cheaper.cheaperTwin = true
        cheaper.powerTarget = 0.80
        list.append(.offline(cheaper))
        list.append(.inputRule(InputRuleScenario(
            name: "power: recommend --by-input: device fails 90 % over 1,500 characters (a third), 60 cases × 2 tiers; found = the length rule, as good as all-cloud at ≤ 45 % of its cost on fresh cases",
            kind: .power, cases: 60)))
        list.append(.inputRule(InputRuleScenario(
            name: "honesty: recommend --by-input, the power scenario: the proposed rule's realised adherence and cost on fresh cases inside its stated 95 % intervals",
            kind: .honesty, cases: 60)))
        var bimodal = HedgeScenario(
            name: "power: recommend --hedge-after auto: device 60 ms ± 20 % nine times in ten (each case drawn), 2.5 s otherwise, cloud 250 ms, 80 cases; found = a hedge proposed within the default caps",
            device: .bimodal)
        bimodal.powerTarget = 0.90
        list.append(.hedge(bimodal))
        var separated = HedgeScenario(
            name: "power: recommend --hedge-after auto: as above, the fast mode 60 ms ± 10 % (below the grid's 70 ms step)", device: .bimodal)
        separated.fastJitter = 0.1
        list.append(.hedge(separated))
        return list
    }

    /// The planned-horizon design's rows (#68): 200 installs, 7 planned daily looks (O'Brien–Fleming spending), read
    /// daily and every 3 hours for the null, daily with the treatment `effect` worse on adherence for the power.
    /// The design a team that runs an experiment for one metric states: O'Brien–Fleming looks, the question it was run
    /// for with 0.8 of the planned α and the guardrails sharing the rest.
    static func plannedDesign(days: Double, looks: Int, primary: String) -> FieldDesign {
        var design = FieldDesign(horizon: .days(days), looks: looks, spending: .obrienFleming)
        design.primaryMetric = primary
        return design
    }

    static func planned(effect: Double) -> [Scenario] {
        let design = plannedDesign(days: 7, looks: 7, primary: "adherence")
        guard effect == 0 else {
            var power = FieldScenario(
                name: "power: −\(Int((-effect * 100).rounded())) pp adherence, 200 installs, 7 planned daily looks", installs: 200, days: 7)
            power.effect = .init(adherence: effect)
            power.design = design
            power.anchorShareTarget = 0.85
            return [.field(power)]
        }
        var daily = FieldScenario(name: "field A/A, 200 installs, 7 planned daily looks", installs: 200, days: 7)
        daily.design = design
        var often = daily
        often.name = "field A/A, 200 installs, 7 planned daily looks, read every 3 h (off-plan looks)"
        often.looksPerDay = 8
        return [.field(daily), .field(often)]
    }

    /// Runs `experiments` seeded experiments of `scenario` (seeds `firstSeed`…), two at a time.
    public static func run(_ scenario: Scenario, experiments: Int, firstSeed: UInt64 = 1) async throws -> Row {
        let document = try HybridConfigDocument.bundledDefaults().document
        var row = Row(scenario: scenario.name, isNull: scenario.isNull, experiments: experiments, falseDecisions: 0, detections: 0)
        row.powerTarget = scenario.powerTarget
        if case .field(let field) = scenario { row.anchorShareTarget = field.anchorShareTarget }
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        try await withThrowingTaskGroup(of: Verdict.self) { group in
            var next = 0
            func start() {
                let seed = firstSeed &+ UInt64(next)
                next += 1
                group.addTask { try one(scenario, seed: seed, document: document) }
            }
            while next < min(workers, experiments) { start() }
            while let result = try await group.next() {
                if let decision = result.falseDecision {
                    row.falseDecisions += 1
                    if row.example == nil { row.example = decision }
                }
                switch result.detected {
                case true?: row.detections += 1
                case false?: break
                case nil: row.notApplicable += 1
                }
                if !row.isNull, let anchor = result.anchor, result.detected != nil {
                    row.anchorDetections = (row.anchorDetections ?? 0) + (anchor ? 1 : 0)
                }
                if !row.isNull, let anchor = result.anchorHolm, result.detected != nil {
                    row.anchorHolmDetections = (row.anchorHolmDetections ?? 0) + (anchor ? 1 : 0)
                }
                if next < experiments { start() }
            }
        }
        return row
    }

    private static func one(_ scenario: Scenario, seed: UInt64, document: HybridConfigDocument) throws -> Verdict {
        switch scenario {
        case .field(let field):
            let outcome = try FieldExperiment(field, document: document).run(seed: seed)
            return Verdict(
                falseDecision: outcome.falseDecisions.first, detected: outcome.detected, anchor: outcome.anchorDetected,
                anchorHolm: outcome.anchorHolmDetected)
        case .offline(let offline):
            let outcome = try offline.run(seed: seed)
            if offline.isNull { return Verdict(falseDecision: outcome.changed ? "switched to \(outcome.to ?? "?")" : nil, detected: false) }
            return Verdict(detected: outcome.changed, anchor: outcome.anchor)
        case .inputRule(let scenario):
            let outcome = scenario.run(seed: seed)
            return Verdict(
                falseDecision: outcome.falseDecision,
                detected: scenario.kind == .honesty && !outcome.proposed ? nil : outcome.detected)
        case .hedge(let scenario):
            let outcome = try scenario.run(seed: seed)
            return Verdict(falseDecision: outcome.falseDecision, detected: outcome.detected, anchor: outcome.anchor)
        }
    }

    /// The table `hybrid-bench calibrate` prints and `docs/statistics.md` carries.
    public static func render(_ rows: [Row]) -> String {
        var lines = [
            "| scenario | experiments | false decisions | share [95 % CI] | power [95 % CI] | anchor [95 % CI] | target |",
            "|---|---|---|---|---|---|---|",
        ]
        for row in rows {
            let share = row.falseShare.map { Self.interval($0) } ?? "–"
            let applies = row.notApplicable > 0 ? " (of the \(row.experiments - row.notApplicable) it applies to)" : ""
            let power = row.power.map { Self.interval($0) + applies } ?? "(null)"
            lines.append(
                "| \(row.scenario) | \(row.experiments) | \(row.falseDecisions) | \(share) | \(power) | \(Self.anchor(row)) | \(Self.target(row)) |")
        }
        return lines.joined(separator: "\n")
    }

    /// The anchor column: the anchor's power and, for a field row, the same fixed-horizon tests with Holm over the
    /// report's metrics ("73.5 % [67.0, 79.1]; with Holm 49.0 % [42.2, 55.9]").
    public static func anchor(_ row: Row) -> String {
        guard let one = row.anchorPower else { return "–" }
        let trials = row.experiments - row.notApplicable
        let holm = row.anchorHolmDetections.flatMap { WilsonInterval(successes: $0, trials: trials) }
        return interval(one) + (holm.map { "; with Holm \(interval($0))" } ?? "")
    }

    /// The target column: "≥ 85 %" or "≥ 85 % of the anchor", and "(missed)" below it.
    public static func target(_ row: Row) -> String {
        var parts: [String] = []
        if let target = row.powerTarget { parts.append(String(format: "≥ %.0f %%", target * 100)) }
        if let share = row.anchorShareTarget { parts.append(String(format: "≥ %.0f %% of the anchor", share * 100)) }
        guard !parts.isEmpty else { return "–" }
        return parts.joined(separator: ", ") + (row.missesTarget ? " (missed)" : "")
    }

    static func interval(_ wilson: WilsonInterval) -> String {
        String(format: "%.1f %% [%.1f, %.1f]", wilson.proportion * 100, wilson.lower * 100, wilson.upper * 100)
    }
}
