/// 1 when the output equals ``Reference/expectedText``, else 0; nil without expected text.
///
/// By default both sides are trimmed, white-space runs collapsed and lowercased, so `" Paris\n"` matches
/// `"paris"`. With `strict`, the strings must be identical (reported as `exact_match_strict`).
public struct ExactMatchScorer: QualityScorer {
    /// Compare the raw strings, without trimming or case folding.
    public var strict: Bool

    /// A scorer; `strict` defaults to the normalised comparison.
    public init(strict: Bool = false) {
        self.strict = strict
    }

    public var name: String { strict ? "exact_match_strict" : "exact_match" }

    public func score(output: String, reference: Reference) -> Double? {
        guard let expected = reference.expectedText else { return nil }
        if strict { return output == expected ? 1 : 0 }
        return TextNormalizer.collapsedLowercased(output) == TextNormalizer.collapsedLowercased(expected) ? 1 : 0
    }
}
