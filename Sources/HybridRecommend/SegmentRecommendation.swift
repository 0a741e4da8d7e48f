public import Foundation
public import HybridConfig
public import HybridReport

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
    /// `--minimum-installs`); its served route misses the floors when every group in it does (adherence Wilson lower
    /// bound over installs, p95 latency, cost per 1,000, as `floorFailures`). The override puts the model that served
    /// most of the segment's events last in the order the segment resolves to today, so the next model serves it;
    /// the condition (`LABEL-VALUE`, `equals` on the value) goes first in `conditions`, so it wins for those installs.
    public func recommendSegments(
        document: HybridConfigDocument, analysis: FieldAnalysis, runID: String, now: Date = Date()
    ) throws(RecommendError) -> SegmentRecommendation {
        let feature = analysis.feature
        guard let config = document.features[feature] else { throw .featureNotInConfig(feature: feature) }
        guard let label = analysis.segmentLabel, let segments = analysis.segments else {
            throw .invalidCondition("--by", reason: "split the field run by a label to recommend per segment")
        }
        let floors = policy.floors(for: feature, config: config)
        var proposed = document
        var changes: [SegmentRecommendation.Change] = []
        var evidence: [String] = []
        for segment in segments where segment.value != "(none)" {
            let name = "\(label)=\(segment.value)"
            let installs = segment.arms.map(\.installs).reduce(0, +)
            guard segment.judged else {
                evidence.append("\(name): \(installs) installs, fewer than \(analysis.minimumInstalls ?? 20) in a group: shown, not judged")
                continue
            }
            let failures = segment.arms.map { Self.floorFailures($0, floors) }
            guard failures.allSatisfy({ !$0.isEmpty }) else {
                evidence.append("\(name): meets the floors (\(Self.summary(segment))): unchanged")
                continue
            }
            guard let change = Self.change(for: segment, label: label, feature: feature, in: proposed, reasons: failures.flatMap { $0 }) else {
                evidence.append("\(name): misses the floors (\(failures.flatMap { $0 }.joined(separator: "; "))) but no other model is in its order")
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
