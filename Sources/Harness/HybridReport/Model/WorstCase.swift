/// A case a person should look at: it errored, failed a constraint, or scored lowest on its arm.
public struct WorstCase: Sendable, Hashable, Codable {
    /// The arm.
    public var armID: String
    /// The dataset case id.
    public var caseID: String
    /// The repeat index.
    public var repeatIndex: Int
    /// `error`, `constraint-failed` or `low-score`.
    public var reason: String
    /// The error kind and message, when it errored.
    public var error: ErrorDetail?
    /// The constraints that failed, with what was observed.
    public var failedConstraints: [FailedCheck]
    /// Every score it received.
    public var scores: [String: Double]
    /// The rendered input (truncated); nil when not stored.
    public var input: String?
    /// The raw output (truncated); nil when there was none.
    public var output: String?

    /// A worst case; see the properties.
    public init(
        armID: String, caseID: String, repeatIndex: Int, reason: String, error: ErrorDetail?,
        failedConstraints: [FailedCheck], scores: [String: Double], input: String?, output: String?
    ) {
        self.armID = armID
        self.caseID = caseID
        self.repeatIndex = repeatIndex
        self.reason = reason
        self.error = error
        self.failedConstraints = failedConstraints
        self.scores = scores
        self.input = input
        self.output = output
    }

    /// An error's kind and message.
    public struct ErrorDetail: Sendable, Hashable, Codable {
        /// Machine kind, e.g. `timeout`.
        public var kind: String
        /// Message for people.
        public var message: String

        /// An error detail.
        public init(kind: String, message: String) {
            self.kind = kind
            self.message = message
        }
    }

    /// A failed constraint check.
    public struct FailedCheck: Sendable, Hashable, Codable {
        /// The constraint name.
        public var name: String
        /// Why it failed, when the check said.
        public var message: String?
        /// What was measured, as compact JSON, when the check recorded it.
        public var observed: String?

        /// A failed check.
        public init(name: String, message: String?, observed: String?) {
            self.name = name
            self.message = message
            self.observed = observed
        }
    }
}
