import HybridCore
import HybridStore

/// What the simulator needs of one stored result, without its text: a few numbers per (case, arm).
package struct ArmOutcome: Sendable {
    /// The result is an error (no usable output).
    var failed: Bool
    /// The error kind (`GenerationError.Kind` raw value or a runner kind) when it failed.
    var errorKind: String?
    /// The stored error's message, so a simulated failure says what the eval saw.
    var errorMessage: String?
    /// Names of the constraint results that failed (`json_parses`, `max_words`, …), as stored.
    var failedChecks: [String]
    /// The result has output text.
    var hasOutput: Bool
    /// Every constraint passed; nil when none was checked.
    var adherent: Bool?
    /// Total latency of the final attempt in milliseconds (0 for errors, which the store records without timing).
    var totalMs: Double
    /// When the first text arrived, in milliseconds from the call's start; nil when the result was not streamed.
    var ttftMs: Double?
    /// Cost in dollars; nil when the model has no price configured.
    var costUSD: Double?
    /// Scores by the table's scorer index; nil where the scorer gave none.
    var scores: [Double?]
    var cacheHit: Bool

    /// An outcome made by hand (the calibration zoo's simulated runs): answered, with these checks and scores.
    package init(adherent: Bool, totalMs: Double, costUSD: Double?, scores: [Double?]) {
        failed = false
        failedChecks = adherent ? [] : ["check"]
        hasOutput = true
        self.adherent = adherent
        self.totalMs = totalMs
        self.costUSD = costUSD
        self.scores = scores
        cacheHit = false
    }

    init(_ record: ResultMeasures, scorerIndex: (String) -> Int) {
        failed = record.error != nil
        // Kinds only the runner knows reach the router as server errors; name them so, as the replay does.
        errorKind = record.error.map { GenerationError.Kind(rawValue: $0.kind) == nil ? GenerationError.Kind.serverError.rawValue : $0.kind }
        errorMessage = record.error?.message
        failedChecks = record.constraints.filter { !$0.passed }.map(\.name)
        hasOutput = record.error == nil && record.hasOutput
        adherent = record.allConstraintsPassed
        totalMs = record.timings.totalMs
        ttftMs = record.error == nil ? record.timings.ttftMs : nil
        costUSD = record.costUSD
        cacheHit = record.cacheHit
        scores = []
        for score in record.scores where score.value.isFinite {
            let index = scorerIndex(score.scorer)
            if scores.count <= index { scores.append(contentsOf: repeatElement(nil, count: index + 1 - scores.count)) }
            scores[index] = score.value
        }
    }

    func score(_ index: Int) -> Double? {
        index < scores.count ? scores[index] : nil
    }
}
