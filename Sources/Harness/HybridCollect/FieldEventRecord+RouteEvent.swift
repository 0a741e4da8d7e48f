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
                cacheHit: event.cacheHit, labels: event.labels, hedged: event.hedged ?? event.attempts.showRace,
                // A call with tokens but no cost: its model had no prices in the app's config.
                costUnknown: event.attempts.contains { $0.inputTokens != nil && $0.costUSD == nil },
                inputRule: event.inputRule))
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
        require(event.configVersion <= Int(Int32.max), "configVersion: \(event.configVersion) is above 2,147,483,647")
        require(event.inputTokens <= 1 << 40 && event.outputTokens <= 1 << 40, "inputTokens/outputTokens: above 2⁴⁰")
        let seconds = event.timestamp.timeIntervalSince1970
        require(seconds.isFinite && seconds >= 0 && seconds < 7_258_118_400, "timestamp: outside 1970–2199")
        problems += textProblems(in: event)
        return problems
    }

    /// Keys and labels a store can keep exactly: no control characters (a NUL ends a C string and PostgreSQL refuses
    /// it in text; a newline separates stored check names) and bounded lengths, so one odd event is refused alone
    /// instead of failing its batch in the store.
    static func textProblems(in event: RouteEvent) -> [String] {
        var problems: [String] = []
        func check(_ field: String, _ value: String?, limit: Int) {
            guard let value else { return }
            let bytes = value.utf8.count
            // Most keys are short ASCII: one pass over the bytes, the scalars only when something is off.
            if hasControlBytes(value.utf8), let scalar = value.unicodeScalars.first(where: isControl) {
                problems.append(String(format: "%@: has control character U+%04X", field, scalar.value))
            } else if bytes > limit {
                problems.append("\(field): \(bytes) bytes, more than \(limit)")
            }
        }
        check("id", event.id, limit: 128)
        check("installId", event.installId, limit: 256)
        check("feature", event.feature, limit: 128)
        check("variant", event.variant, limit: 128)
        check("rolloutArm", event.rolloutArm, limit: 128)
        check("inputRule", event.inputRule, limit: 128)
        check("servedBy", event.servedBy, limit: 256)
        check("errorKind", event.errorKind, limit: 128)
        check("configHash", event.configHash, limit: 256)
        for (index, attempt) in event.attempts.enumerated() { check("attempts[\(index)].model", attempt.model, limit: 256) }
        for (index, result) in event.checks.enumerated() { check("checks[\(index)].name", result.name, limit: 128) }
        if event.labels.count > 64 { problems.append("labels: \(event.labels.count) labels, more than 64") }
        let beforeLabels = problems.count
        for (key, value) in event.labels {
            check("labels key", key, limit: 64)
            check("labels.\(key.unicodeScalars.contains(where: isControl) ? "?" : key)", value, limit: 256)
        }
        // A dictionary's order changes from run to run; the reasons an app is told should not.
        problems[beforeLabels...].sort()
        return problems
    }

    /// Whether UTF-8 `bytes` may hold a control character: a C0 byte or DEL, or the lead byte 0xC2 of U+0080–U+009F.
    static func hasControlBytes(_ bytes: String.UTF8View) -> Bool {
        bytes.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }
    }

    /// C0 and C1 control characters and DEL.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// The router fell back when the answer came from a model after the first one it tried (skips do not count:
    /// a model skipped for privacy was never a candidate), or when no model answered after at least one call. A
    /// hedge's race is not a fallback: a model that lost it did not fail, so a raced model's win is not counted.
    static func fellBack(_ attempts: [RouteEvent.Attempt], servedIndex: Int?) -> Bool {
        guard let servedIndex else { return attempts.lazy.filter { $0.outcome != .skipped }.count > 1 }
        return attempts[..<servedIndex].contains { $0.outcome != .skipped && $0.outcome != .lostRace }
    }
}
