/// The result of evaluating a ``GateSpec``: one ``GateResult`` per (feature, arm, gate).
public struct GateOutcome: Sendable, Hashable, Codable {
    /// True when no gate failed (skipped gates do not fail).
    public var passed: Bool
    /// Every gate checked, in feature, arm, gate order.
    public var results: [GateResult]

    /// An outcome over `results`.
    public init(results: [GateResult]) {
        self.results = results
        passed = !results.contains { $0.status == .failed }
    }

    /// The failed gates.
    public var failures: [GateResult] { results.filter { $0.status == .failed } }

    /// The process exit code for CI: 0 when every gate held, 3 when one failed.
    public var exitCode: Int32 { passed ? 0 : 3 }
}

/// One gate on one arm, with the numbers behind its status.
public struct GateResult: Sendable, Hashable, Codable {
    /// Passed, failed, or not checkable (no data for it, e.g. no latency samples when every result was cached).
    public enum Status: String, Sendable, Hashable, Codable {
        /// The gate held.
        case passed
        /// The gate failed; CI exits 3.
        case failed
        /// There was nothing to check; does not fail CI.
        case skipped
    }

    /// The feature.
    public var feature: String
    /// The arm id.
    public var armID: String
    /// `minAdherenceLower`, `minQuality:<scorer>`, `maxP95TotalMs`, `maxCostPer1k`, or `regression:<metric>`.
    public var gate: String
    /// The outcome.
    public var status: Status
    /// The threshold the value was held to, when there is one.
    public var threshold: Double?
    /// The measured value, when there is one.
    public var actual: Double?
    /// A sentence with the numbers, e.g. "adherence lower bound 0.712 < 0.900 (41/50 passed)".
    public var message: String

    /// A gate result; see the properties.
    public init(feature: String, armID: String, gate: String, status: Status, threshold: Double?, actual: Double?, message: String) {
        self.feature = feature
        self.armID = armID
        self.gate = gate
        self.status = status
        self.threshold = threshold
        self.actual = actual
        self.message = message
    }
}
