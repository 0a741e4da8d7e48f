public import Foundation
public import HybridConfig
import HybridConfigTools
public import HybridReport
public import HybridStore
import HybridCore

/// What `hybrid recommend FIELD_RUN --by LABEL` proposes: for each segment (one value of the label) whose served
/// route misses the policy's floors, a condition on that value and an override that moves the model that served it
/// behind the rest of the order; every other segment stays as it is.
public struct SegmentRecommendation: Sendable, Hashable {
    /// One segment's change.
    public struct Change: Sendable, Hashable {
        /// The label split on and the segment's value.
        public var label: String
        public var value: String
        /// The condition written (or updated) for the segment.
        public var condition: String
        /// The segment's priority order before and after.
        public var before: [String]
        public var after: [String]
        /// The floors the served route missed, with its figures.
        public var reasons: [String]
    }

    /// The config the run was judged against.
    public var base: HybridConfigDocument
    /// The proposed config (version + 1 when anything changed; equal to `base` otherwise).
    public var document: HybridConfigDocument
    /// The segments changed.
    public var changes: [Change]
    /// One line per segment: its figures and what was decided.
    public var evidence: [String]
    /// Each judged group's always-valid floor tests at this look, to keep (under ``FieldRecommender/floorLookRun(_:)``)
    /// so the next daily run continues the same sequential test instead of starting a new one.
    public var look: [FieldLook.Entry] = []

    /// What would change, in `ConfigDiff`'s words.
    public var diff: String { ConfigDiff.render(from: base, to: document) }
}

extension FieldRecommender {
    /// Per-segment overrides for a field analysis split by a label (`FieldReportBuilder(segmentLabel:)`).
    ///
    /// A segment is judged only with enough installs in every group (`FieldSegment.judged`, the report's
    /// `--minimum-installs`). Its served route misses the adherence floor only when the data show it: a one-sided
    /// test of "adherence ≥ floor" on installs (the delta-method standard error of each group's rate; every group of
    /// the segment must be below, so the segment's p is the largest of its groups'), Holm-adjusted across the
    /// segments considered, below the policy's α (0.05). A lower bound under the floor is not enough: with few
    /// installs it only says the data are thin, and the evidence line then names the installs a test would need.
    /// The p95-latency and cost floors are tested the same way when `events` are given. The
    /// override puts the model that served most of the segment's events last in the order the segment resolves to
    /// today; the condition (`LABEL-VALUE`, `equals` on the value) goes first in `conditions`, so it wins.
    public func recommendSegments(
        document: HybridConfigDocument, analysis: FieldAnalysis, runID: String, now: Date = Date(), alpha: Double = 0.05,
        events: [FieldEventRecord]? = nil, history: [FieldLook] = []
    ) throws(RecommendError) -> SegmentRecommendation {
        let feature = analysis.feature
        guard let config = document.features[feature] else { throw .featureNotInConfig(feature: feature) }
        guard let label = analysis.segmentLabel, let segments = analysis.segments else {
            throw .invalidCondition("--by", reason: "split the field run by a label to recommend per segment")
        }
        guard analysis.sampleRatio.map({ !$0.mismatch }) ?? true else {
            let p = analysis.sampleRatio.map { String(format: "p = %.2g", $0.pValue) } ?? ""
            let reason = "sample ratio check did not pass (\(p)): the split is broken, no segment is judged"
            return SegmentRecommendation(base: document, document: document, changes: [], evidence: [reason])
        }
        let floors = policy.floors(for: feature, config: config)
        let considered = segments.filter { $0.value != "(none)" && $0.judged }
        let earlier = SegmentFloorTest.history(history)
        let tests = considered.map { segment in
            SegmentFloorTest(
                segment: segment, floors: floors, alpha: alpha,
                events: events.map { Self.events(of: segment, in: $0) }, history: earlier)
        }
        let adjusted = HolmCorrection.adjustedPValues(tests.map { $0.segmentPValue ?? 1 })
        var proposed = document
        var changes: [SegmentRecommendation.Change] = []
        var evidence: [String] = []
        for segment in segments where segment.value != "(none)" && !segment.judged {
            let installs = segment.arms.map(\.installs).reduce(0, +)
            evidence.append("\(label)=\(segment.value): \(installs) installs, fewer than \(analysis.minimumInstalls ?? 20) in a group: shown, not judged")
        }
        for (index, segment) in considered.enumerated() {
            let name = "\(label)=\(segment.value)"
            let test = tests[index]
            let missed = test.segmentPValue != nil && adjusted[index] < alpha
            let reasons = missed ? test.describe(adjustedP: adjusted[index]) : []
            guard !reasons.isEmpty else {
                let figures = test.describe(adjustedP: adjusted[index]).map { "; " + $0 }.joined()
                evidence.append("\(name): \(test.verdict(adjustedP: adjusted[index], segments: considered.count))\(figures) (\(Self.summary(segment))): unchanged")
                continue
            }
            guard let change = Self.change(for: segment, label: label, feature: feature, in: proposed, reasons: reasons) else {
                evidence.append("\(name): misses the floors (\(reasons.joined(separator: "; "))) but no other model is in its order")
                continue
            }
            Self.apply(change, feature: feature, to: &proposed)
            changes.append(change)
            evidence.append(
                "\(name): \(Self.summary(segment)); \(change.reasons.joined(separator: "; ")) → order \(change.after.joined(separator: " → ")) under condition \(change.condition)")
        }
        let look = tests.flatMap(\.lookEntries)
        guard !changes.isEmpty else {
            return SegmentRecommendation(base: document, document: document, changes: [], evidence: evidence, look: look)
        }
        proposed.version = document.version + 1
        proposed.provenance = Provenance(producedBy: producedBy, evalRun: runID, createdAt: ISO8601DateFormatter().string(from: now))
        proposed.description = "per-\(label) overrides of \(feature) from field run \(runID) (config v\(analysis.configVersion)): "
            + changes.map { "\($0.label)=\($0.value) \($0.after.joined(separator: " → "))" }.joined(separator: "; ")
        return SegmentRecommendation(base: document, document: proposed, changes: changes, evidence: evidence, look: look)
    }

    /// The run id under which a field run's segment floor looks are kept, apart from the report's own looks (each
    /// look is kept once per event count).
    public static func floorLookRun(_ runID: String) -> String { "\(runID) floors" }

    /// The events of `segment`'s value of its label, by group name.
    static func events(of segment: FieldSegment, in events: [FieldEventRecord]) -> [String: [FieldEventRecord]] {
        Dictionary(grouping: events.filter { $0.labels[segment.label] ?? "(none)" == segment.value }) { $0.rolloutArm ?? "default" }
    }

    private static func change(
        for segment: FieldSegment, label: String, feature: String, in document: HybridConfigDocument, reasons: [String]
    ) -> SegmentRecommendation.Change? {
        var served: [String: Int] = [:]
        for arm in segment.arms { served.merge(arm.servedBy) { $0 + $1 } }
        guard let model = served.filter({ $0.key != "none" }).max(by: { ($0.value, $1.key) < ($1.value, $0.key) })?.key,
            let before = document.resolve(feature: feature, labels: [label: segment.value], installId: "")?.config.priority,
            before.contains(model), before.count > 1
        else { return nil }
        return SegmentRecommendation.Change(
            label: label, value: segment.value, condition: conditionName(label: label, value: segment.value), before: before,
            after: before.filter { $0 != model } + [model], reasons: reasons)
    }

    private static func apply(_ change: SegmentRecommendation.Change, feature: String, to document: inout HybridConfigDocument) {
        document.conditions.removeAll { $0.name == change.condition }
        document.conditions.insert(
            ConfigCondition(name: change.condition, labels: [change.label: LabelTest(equals: change.value)]), at: 0)
        var overrides = document.features[feature]?.overrides ?? [:]
        overrides[change.condition, default: FeatureOverride()].priority = change.after
        document.features[feature]?.overrides = overrides
    }

    /// `deviceClass-phone-2019`: letters, digits, `-`, `_` and `.` kept, anything else becomes `_`.
    static func conditionName(label: String, value: String) -> String {
        let text = "\(label)-\(value)"
        return String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_.".unicodeScalars.contains(scalar) ? scalar : "_"
        }))
    }

    private static func summary(_ segment: FieldSegment) -> String {
        segment.arms.map { arm in
            let p95 = arm.latency.map { String(format: "p95 %.0f ms", $0.p95) } ?? "no latency"
            let served = arm.servedBy.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            return "\(arm.installs) installs, \(arm.events) events, \(p95), served by \(served)"
        }.joined(separator: " | ")
    }
}

/// The one-sided tests of a segment against the policy's floors, each H₀ "the floor is met" for every group of the
/// segment (so a floor's p is the largest of its groups'): adherence on the install-level standard error of the
/// report's rate; p95 latency as "more than 5 % of answered events slower than the limit" and cost per 1,000, on
/// installs from the segment's events (`FieldFloorTest`). Every p is the mixture SPRT's always-valid one, running
/// (its minimum) over the looks kept from earlier runs of the same group and floor. The segment's p is the smallest
/// floor's times the number of floors tested (Bonferroni within the segment), which Holm then adjusts across
/// segments.
struct SegmentFloorTest {
    /// One floor's test: its name, its p, and the group behind it.
    struct Floor {
        var name: String
        var pValue: Double
        var value: Double
        var limit: Double
        var standardError: Double
        var installs: Int
        /// Missing the floor means being above it (latency, cost), not below (adherence).
        var missedAbove: Bool
    }

    var floors: [Floor] = []
    var alpha: Double
    /// Floors the policy sets that could not be tested (no events given for latency and cost).
    var untested: [String] = []
    /// This look's entries: every group's own always-valid p for every floor tested.
    var lookEntries: [FieldLook.Entry] = []
    private let segmentName: String
    private let history: [String: Double]

    init(
        segment: FieldSegment, floors policy: FeatureFloors, alpha: Double, events: [String: [FieldEventRecord]]?,
        history: [String: Double] = [:]
    ) {
        self.alpha = alpha
        segmentName = "\(segment.label)=\(segment.value)"
        self.history = history
        if let floor = policy.minAdherenceLower {
            add(worst(segment, name: "adherence", limit: floor, tau: Self.tau, missedAbove: false) { arm in
                Self.adherence(segment.arms.first { $0.name == arm })
            })
        }
        if let limit = policy.p95LatencyMs {
            if let events {
                add(worst(segment, name: "p95 latency", limit: 0.05, tau: Self.tau, missedAbove: true, keyedBy: "p95 latency \(limit) ms") {
                    FieldFloorTest.latency(above: limit, events: events[$0] ?? [])
                })
            } else {
                untested.append("p95 latency")
            }
        }
        if let limit = policy.maxCostPer1k {
            if let events {
                add(worst(segment, name: "cost per 1,000", limit: limit, tau: max(limit * 0.1, 1e-9), missedAbove: true) {
                    FieldFloorTest.cost(above: limit, events: events[$0] ?? [])
                })
            } else {
                untested.append("cost per 1,000")
            }
        }
    }

    /// The mixture SPRT's τ for shares: a shortfall of 10 points is what an override is worth making for.
    static let tau = 0.10

    /// The smallest p kept per (group, floor, segment) over `looks`.
    static func history(_ looks: [FieldLook]) -> [String: Double] {
        var smallest: [String: Double] = [:]
        for look in looks {
            for entry in look.entries { smallest[entry.key] = min(entry.pValue, smallest[entry.key] ?? 1) }
        }
        return smallest
    }

    private mutating func add(_ floor: Floor?) {
        if let floor { floors.append(floor) }
    }

    /// The segment's p: the smallest floor's, Bonferroni-corrected for the floors tested; nil when none was.
    var segmentPValue: Double? {
        floors.map(\.pValue).min().map { min(1, $0 * Double(floors.count)) }
    }

    /// A group's adherence as the report estimates it, with the install-level SE behind its interval.
    static func adherence(_ arm: FieldArmSummary?) -> FieldFloorTest.Outcome? {
        guard let arm, let adherence = arm.adherence else { return nil }
        // The report's interval is rate ± z·SE over installs (clipped to [0, 1]); the unclipped side gives SE.
        let half = max(adherence.rate - adherence.lower, adherence.upper - adherence.rate)
        let se = max(half / NormalDistribution.quantile(0.975), 1e-9)
        var outcome = FieldFloorTest.Outcome(
            value: adherence.rate, standardError: se, installs: adherence.units ?? arm.installs, pValue: 1)
        outcome.events = Double(adherence.total)
        return outcome
    }

    /// A floor missed in every group: the largest of the groups' running always-valid one-sided p-values.
    private mutating func worst(
        _ segment: FieldSegment, name: String, limit: Double, tau: Double, missedAbove: Bool, keyedBy key: String? = nil,
        test: (String) -> FieldFloorTest.Outcome?
    ) -> Floor? {
        // A look is the same test only under the same floor: a policy that moves the floor starts a new history.
        let metric = key ?? "\(name) \(limit)"
        var worst: Floor?
        for arm in segment.arms {
            guard let outcome = test(arm.name) else { return nil }
            let shortfall = missedAbove ? outcome.value - limit : limit - outcome.value
            let now = shortfall > 0
                ? MixtureSPRT(difference: shortfall, variance: Self.variance(outcome, share: name != "cost per 1,000"), tau: tau)?.pValue ?? 1
                : 1
            let key = FieldLook.Entry.key(arm: arm.name, control: "floor", metric: metric, segment: segmentName)
            lookEntries.append(FieldLook.Entry(
                arm: arm.name, control: "floor", metric: metric, segment: segmentName, pValue: now,
                lower: outcome.value - 1.96 * outcome.standardError, upper: outcome.value + 1.96 * outcome.standardError))
            let p = min(now, history[key] ?? 1)
            if worst == nil || p > worst!.pValue {
                worst = Floor(
                    name: name, pValue: p, value: outcome.value, limit: limit, standardError: outcome.standardError,
                    installs: outcome.installs, missedAbove: missedAbove)
            }
        }
        return worst
    }

    /// The outcome's variance, with a floor where installs agree perfectly (every answer over the limit, every one
    /// adhering): for a share, the independent-events variance of the shrunk share q̃ = (s + ½)/(n + 1), as the
    /// report's comparisons use, so 5 of 5 answers over the limit still has a test; else a vanishing positive one.
    static func variance(_ outcome: FieldFloorTest.Outcome, share: Bool) -> Double {
        let plain = outcome.standardError * outcome.standardError
        guard share, outcome.events > 0 else { return max(plain, 1e-12 * max(1, outcome.value * outcome.value)) }
        return max(plain, RatioEstimate.shareVarianceFloor(rate: outcome.value, events: outcome.events))
    }

    /// One line per floor tested: "adherence 0.612 < floor 0.700 (SE 0.031 over 24 installs, always-valid p = 0.0021)".
    func describe(adjustedP: Double) -> [String] {
        floors.map { floor in
            let what = floor.name == "p95 latency" ? "share of answers over the p95 limit" : floor.name
            let side = floor.missedAbove ? (floor.value > floor.limit ? ">" : "≤") : (floor.value < floor.limit ? "<" : "≥")
            return String(
                format: "%@ %.3f %@ floor %.3f (SE %.3f over %d installs, always-valid p = %.2g running over looks; segment, Holm %.2g)", what,
                floor.value, side, floor.limit, floor.standardError, floor.installs, floor.pValue, adjustedP)
        } + untested.map { "\($0): not tested (no events given)" }
    }

    /// Meets the floors, or not enough evidence, with the installs a test of the closest floor would need at the
    /// family's first Holm step (α over the segments judged, then over the floors of this one).
    func verdict(adjustedP: Double, segments: Int = 1) -> String {
        let alpha = self.alpha / Double(max(1, segments) * max(1, floors.count))
        let missed = floors.filter { $0.missedAbove ? $0.value > $0.limit : $0.value < $0.limit }
        guard let closest = missed.min(by: { $0.pValue < $1.pValue }) else { return "meets the floors" }
        // Installs for the observed shortfall to be found with 80 % power by the always-valid test at this α: n·SE²
        // is the per-install variance, so SE scales as 1/√n; the mixture SPRT's MDE is the fixed-horizon one
        // widened by its boundary.
        let shortfall = abs(closest.value - closest.limit)
        let perInstall = Double(closest.installs) * closest.standardError * closest.standardError
        var installs = closest.installs + 1
        while installs < 1_000_000 {
            let variance = perInstall / Double(installs)
            if let mde = MixtureSPRT.minimumDetectableEffect(variance: variance, tau: Self.tau, alpha: alpha), mde <= shortfall { break }
            installs = Int(Double(installs) * 1.1) + 1
        }
        return "not enough evidence that \(closest.name) misses its floor (about \(installs) installs per group would show a shortfall this size)"
    }
}
