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
