/// 1 when a classification output is one of ``Reference/labels``, else 0; nil without labels.
///
/// Single-label classification: the labels are the acceptable answers. The output is compared after
/// trimming surrounding quotes, backticks, Markdown emphasis and trailing punctuation, collapsing white space
/// and lowercasing, so `"**Positive.**"` matches `positive`. Anything more than the label (`It is positive`)
/// scores 0; that is the point of a label check. It decides pass/fail (``passThreshold`` 1), so a wrong label fails
/// the case like a broken format does.
public struct LabelMatchScorer: QualityScorer {
    /// The scorer; it has no options.
    public init() {}

    public var name: String { "label_match" }

    /// A label is right or wrong: a case passes only with the expected label.
    public var passThreshold: Double? { 1 }

    public func score(output: String, reference: Reference) -> Double? {
        guard !reference.labels.isEmpty else { return nil }
        let answer = Self.normalize(output)
        return reference.labels.contains { Self.normalize($0) == answer } ? 1 : 0
    }

    static func normalize(_ text: String) -> String {
        let wrapper: (Character) -> Bool = { $0.isWhitespace || "\"'`*_“”‘’".contains($0) }
        var body = Substring(text)
        while let first = body.first, wrapper(first) { body.removeFirst() }
        while let last = body.last, wrapper(last) || ".!?,;:".contains(last) { body.removeLast() }
        return TextNormalizer.collapsedLowercased(String(body))
    }
}
