public import HybridCore
public import HybridStore

extension FieldEventRecord {
    /// The stored form of `event`, or the reasons it cannot be stored, each naming the field (`latencyMs: -3 is
    /// negative`). Opt-in content is never stored: field reports need figures, not text.
    public static func validated(_ event: RouteEvent) -> Result<FieldEventRecord, FieldEventRejection> {
        let problems = EventChecks.problems(in: event)
        guard problems.isEmpty else { return .failure(FieldEventRejection(reasons: problems)) }
        let served = event.attempts.firstIndex { $0.outcome == .served || $0.outcome == .servedFromCache }
        return .success(
            FieldEventRecord(
                eventID: event.id, occurredAt: event.timestamp, installID: event.installId, feature: event.feature,
                configVersion: event.configVersion, configHash: event.configHash, rolloutArm: event.rolloutArm,
                bucket: event.bucket, variant: event.variant, servedBy: event.servedBy,
                servedTier: event.servedTier?.rawValue, outcome: event.outcome.rawValue, errorKind: event.errorKind,
                attemptCount: event.attempts.count, fellBack: EventChecks.fellBack(event.attempts, servedIndex: served),
                ttftMs: event.ttftMs, latencyMs: event.latencyMs, inputTokens: event.inputTokens,
                outputTokens: event.outputTokens, tokensEstimated: event.tokensEstimated, costUSD: event.costUSD,
                checksTotal: event.checks.count, failedChecks: event.checks.filter { !$0.passed }.map(\.name).sorted(),
                cacheHit: event.cacheHit, labels: event.labels, hedged: event.hedged ?? event.attempts.showRace))
    }
}

/// Why an event was refused: every problem found, each naming its field.
public struct FieldEventRejection: Error, Sendable, Hashable, CustomStringConvertible {
    /// The problems, in field order.
    public var reasons: [String]

    /// A rejection for `reasons`.
    public init(reasons: [String]) {
        self.reasons = reasons
    }

    public var description: String { reasons.joined(separator: "; ") }
}

/// The range checks an event must pass beyond decoding.
enum EventChecks {
    static func problems(in event: RouteEvent) -> [String] {
        var problems: [String] = []
        func require(_ condition: Bool, _ message: @autoclosure () -> String) {
            if !condition { problems.append(message()) }
        }
        require(!event.id.isEmpty && event.id.utf8.count <= 128, "id: must be 1–128 characters")
        require(!event.installId.isEmpty, "installId: must not be empty")
        require(!event.feature.isEmpty, "feature: must not be empty")
        require(!event.variant.isEmpty, "variant: must not be empty")
        require(event.configVersion >= 0, "configVersion: \(event.configVersion) is negative")
        require(event.bucket.map { (0..<10_000).contains($0) } ?? true, "bucket: \(event.bucket ?? 0) is outside 0–9,999")
        require(event.latencyMs.isFinite && event.latencyMs >= 0, "latencyMs: \(event.latencyMs) is not a duration")
        require(event.ttftMs.map { $0.isFinite && $0 >= 0 } ?? true, "ttftMs: \(event.ttftMs ?? 0) is not a duration")
        require(event.inputTokens >= 0, "inputTokens: \(event.inputTokens) is negative")
        require(event.outputTokens >= 0, "outputTokens: \(event.outputTokens) is negative")
        require(event.costUSD.isFinite && event.costUSD >= 0, "costUSD: \(event.costUSD) is not a price")
        return problems
    }

    /// The router fell back when the answer came from a model after the first one it tried (skips do not count:
    /// a model skipped for privacy was never a candidate), or when no model answered after at least one call. A
    /// hedge's race is not a fallback: a model that lost it did not fail, so a raced model's win is not counted.
    static func fellBack(_ attempts: [RouteEvent.Attempt], servedIndex: Int?) -> Bool {
        guard let servedIndex else { return attempts.lazy.filter { $0.outcome != .skipped }.count > 1 }
        return attempts[..<servedIndex].contains { $0.outcome != .skipped && $0.outcome != .lostRace }
    }
}
