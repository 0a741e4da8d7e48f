/// 1 when the output contains ``Reference/expectedText`` after both are normalised (white space collapsed,
/// lowercased), else 0; nil without expected text or when it is blank.
public struct ContainsScorer: QualityScorer {
    /// The scorer; it has no options.
    public init() {}

    public var name: String { "contains" }

    public func score(output: String, reference: Reference) -> Double? {
        guard let expected = reference.expectedText else { return nil }
        let needle = TextNormalizer.collapsedLowercased(expected)
        guard !needle.isEmpty else { return nil }
        return TextNormalizer.collapsedLowercased(output).contains(needle) ? 1 : 0
    }
}
