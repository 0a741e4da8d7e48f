public import Foundation
public import HybridConfig
public import HybridReport
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
    /// The p95-latency and cost floors are compared on their point estimates, as for whole runs (no test yet). The
    /// override puts the model that served most of the segment's events last in the order the segment resolves to
    /// today; the condition (`LABEL-VALUE`, `equals` on the value) goes first in `conditions`, so it wins.
    public func recommendSegments(
        document: HybridConfigDocument, analysis: FieldAnalysis, runID: String, now: Date = Date(), alpha: Double = 0.05
    ) throws(RecommendError) -> SegmentRecommendation {
        let feature = analysis.feature
        guard let config = document.features[feature] else { throw .featureNotInConfig(feature: feature) }
        guard let label = analysis.segmentLabel, let segments = analysis.segments else {
            throw .invalidCondition("--by", reason: "split the field run by a label to recommend per segment")
        }
        let floors = policy.floors(for: feature, config: config)
        let considered = segments.filter { $0.value != "(none)" && $0.judged }
        let tests = considered.map { SegmentFloorTest(segment: $0, floors: floors, alpha: alpha) }
        let adjusted = HolmCorrection.adjustedPValues(tests.map { $0.pValue ?? 1 })
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
            let others = segment.arms.map { FieldRecommender.floorFailures($0, floors, adherence: false) }
            let belowAdherence = test.pValue != nil && adjusted[index] < alpha
            let reasons = (belowAdherence ? [test.describe(adjustedP: adjusted[index])] : [])
                + (others.allSatisfy { !$0.isEmpty } ? others.flatMap { $0 } : [])
            guard !reasons.isEmpty else {
                let adherence = test.pValue == nil ? "" : "; " + test.describe(adjustedP: adjusted[index])
                evidence.append("\(name): \(test.verdict(adjustedP: adjusted[index]))\(adherence) (\(Self.summary(segment))): unchanged")
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
        guard !changes.isEmpty else {
            return SegmentRecommendation(base: document, document: document, changes: [], evidence: evidence)
        }
        proposed.version = document.version + 1
        proposed.provenance = Provenance(producedBy: producedBy, evalRun: runID, createdAt: ISO8601DateFormatter().string(from: now))
        proposed.description = "per-\(label) overrides of \(feature) from field run \(runID) (config v\(analysis.configVersion)): "
            + changes.map { "\($0.label)=\($0.value) \($0.after.joined(separator: " → "))" }.joined(separator: "; ")
        return SegmentRecommendation(base: document, document: proposed, changes: changes, evidence: evidence)
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

/// The one-sided test of a segment's adherence against the policy's floor: H₀ "adherence ≥ floor" for every group of
/// the segment, rejected only when each group's rate is below the floor beyond its install-level standard error.
struct SegmentFloorTest {
    /// The floor; nil when the policy sets none.
    var floor: Double?
    /// The segment's p (the largest of its groups'); nil without a floor or an adherence figure.
    var pValue: Double?
    /// The group whose p is the segment's, with its rate, standard error and installs.
    var rate = 0.0
    var standardError = 0.0
    var installs = 0
    var alpha: Double

    init(segment: FieldSegment, floors: FeatureFloors, alpha: Double) {
        self.alpha = alpha
        floor = floors.minAdherenceLower
        guard let floor else { return }
        for arm in segment.arms {
            guard let adherence = arm.adherence else { return }
            // The report's interval is rate ± z·SE over installs (clipped to [0, 1]); the unclipped side gives SE.
            let z = NormalDistribution.quantile(0.975)
            let half = max(adherence.rate - adherence.lower, adherence.upper - adherence.rate)
            let se = max(half / z, 1e-9)
            let p = NormalDistribution.cdf((adherence.rate - floor) / se)
            if pValue == nil || p > pValue! {
                pValue = p
                rate = adherence.rate
                standardError = se
                installs = adherence.units ?? arm.installs
            }
        }
    }

    /// "adherence 0.612 < floor 0.700 (SE 0.031 over 24 installs, one-sided p = 0.0021, Holm 0.0042)".
    func describe(adjustedP: Double) -> String {
        String(
            format: "adherence %.3f %@ floor %.3f (SE %.3f over %d installs, one-sided p = %.2g, Holm %.2g)", rate,
            rate < (floor ?? 0) ? "<" : "≥", floor ?? 0, standardError, installs, pValue ?? 1, adjustedP)
    }

    /// Meets the floor, or not enough evidence either way, with the installs a test would need.
    func verdict(adjustedP: Double) -> String {
        guard let floor, pValue != nil else { return "meets the floors" }
        if rate >= floor { return "meets the adherence floor" }
        // Installs for the observed shortfall to be found with 80 % power at this α: n·SE² is the per-install
        // variance, so SE scales as 1/√n.
        let shortfall = floor - rate
        let z = NormalDistribution.quantile(1 - alpha) + NormalDistribution.quantile(0.8)
        let needed = Int((Double(installs) * pow(z * standardError / shortfall, 2)).rounded(.up))
        return "not enough evidence that adherence is below the floor (about \(max(needed, installs + 1)) installs per group would show a shortfall this size)"
    }
}
