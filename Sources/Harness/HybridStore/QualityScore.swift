/// One scorer's quality score for one result (exact match, ROUGE-L, judge rating).
public struct QualityScore: Sendable, Hashable, Codable {
    /// The scorer's name as configured, such as `exact_match` or `judge:helpfulness`.
    public var scorer: String
    /// The score; scorers document their range (most use 0...1). Must be finite.
    public var value: Double
    /// A short explanation (a judge's rationale); nil when the scorer gives none.
    public var detail: String?

    /// Creates a score; `value` must be finite.
    public init(scorer: String, value: Double, detail: String? = nil) {
        self.scorer = scorer
        self.value = value
        self.detail = detail
    }
}
