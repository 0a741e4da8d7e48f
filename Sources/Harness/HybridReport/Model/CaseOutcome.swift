/// One arm's result on one case, as a person reads it beside another: the input it sent, passed or not, the output,
/// the error or the failing checks, and the scores. Shared by the report's per-case ``SideBySide`` and by
/// ``CaseFlips``.
public struct CaseOutcome: Sendable, Hashable, Codable {
    /// The rendered prompt this arm sent (cut at the text limit); arms with different prompt variants, or runs with
    /// different configs, send different text for the same case. nil when not stored.
    public var input: String?
    /// True when every constraint passed, false when one failed or the request errored; nil when there was
    /// nothing to check (no constraints) or the arm has no result for the case.
    public var passed: Bool?
    /// The raw output (cut at the report's text limit); nil when there was none.
    public var output: String?
    /// The error kind and message, when it errored.
    public var error: WorstCase.ErrorDetail?
    /// The constraints that failed, with what was observed.
    public var failedChecks: [WorstCase.FailedCheck]
    /// Every score it received, by scorer.
    public var scores: [String: Double]

    /// An outcome; normally read from a stored result.
    public init(
        input: String?, passed: Bool?, output: String?, error: WorstCase.ErrorDetail?, failedChecks: [WorstCase.FailedCheck],
        scores: [String: Double]
    ) {
        self.input = input
        self.passed = passed
        self.output = output
        self.error = error
        self.failedChecks = failedChecks
        self.scores = scores
    }

    /// The outcome of an arm that has no result for the case.
    public static let missing = CaseOutcome(input: nil, passed: nil, output: nil, error: nil, failedChecks: [], scores: [:])
}
