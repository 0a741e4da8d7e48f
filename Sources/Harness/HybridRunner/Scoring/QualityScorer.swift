/// Scores one model output against a dataset case's ``Reference``, from 0 (wrong) to 1 (perfect).
///
/// Scorers are pure and cheap. `score` returns nil when the reference carries nothing this scorer uses
/// (e.g. ``FieldMatchScorer`` on a case without expected fields), so reports can leave the cell empty
/// instead of averaging in a misleading 0.
public protocol QualityScorer: Sendable {
    /// Stable snake_case name used in configs and reports (`token_f1`, `rouge_l`, ...).
    var name: String { get }
    /// A score in 0...1, or nil when no reference applies.
    func score(output: String, reference: Reference) -> Double?
    /// The score at which an output passes, when this scorer decides correctness (a label is right or wrong);
    /// nil for a measure only. A scorer with a threshold adds a check of its name to every result it scores, so
    /// "passed", pass→fail flips, `compare` and the gates see a wrong answer, not only a broken format.
    var passThreshold: Double? { get }
}

extension QualityScorer {
    /// A measure only, unless the scorer says otherwise (or `--scorers NAME>=X` gives it a threshold).
    public var passThreshold: Double? { nil }
}

/// A scorer with a pass threshold given by the user (`--scorers rouge_l>=0.4`); it keeps the scorer's name, so its
/// scores and its check share one column.
public struct ThresholdScorer: QualityScorer {
    /// The scorer that measures.
    public var base: any QualityScorer
    /// The score at which an output passes.
    public var threshold: Double

    /// `base` passing at `threshold` and above.
    public init(_ base: any QualityScorer, passingAt threshold: Double) {
        self.base = base
        self.threshold = threshold
    }

    public var name: String { base.name }
    public var passThreshold: Double? { threshold }
    public func score(output: String, reference: Reference) -> Double? { base.score(output: output, reference: reference) }
}

extension Array where Element == any QualityScorer {
    /// Every applicable score by scorer name; scorers returning nil are left out.
    public func scores(output: String, reference: Reference) -> [String: Double] {
        var result: [String: Double] = [:]
        for scorer in self {
            if let value = scorer.score(output: output, reference: reference) { result[scorer.name] = value }
        }
        return result
    }
}
