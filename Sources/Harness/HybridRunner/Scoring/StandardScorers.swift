import Foundation

/// The built-in scorers, looked up by the names configs and reports use.
public enum StandardScorers {
    /// One of each built-in scorer with default options, in report column order.
    public static let all: [any QualityScorer] = [
        ExactMatchScorer(), ExactMatchScorer(strict: true), ContainsScorer(), RegexScorer(), TokenF1Scorer(),
        RougeLScorer(), FieldMatchScorer(), LabelMatchScorer(),
    ]

    /// Every built-in scorer name.
    public static var names: [String] { all.map(\.name) }

    /// The built-in scorer called `name`, or nil (callers should report ``names`` as the valid choices).
    public static func named(_ name: String) -> (any QualityScorer)? {
        all.first { $0.name == name }
    }

    /// The scorer a `--scorers` item names: `NAME`, or `NAME>=X` (X in 0...1) for a scorer that passes at X.
    /// Nil when the name is unknown or X is not a number in 0...1.
    public static func parse(_ item: String) -> (any QualityScorer)? {
        guard let range = item.range(of: ">=") else { return named(item) }
        let name = item[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
        guard let scorer = named(name), let threshold = Double(item[range.upperBound...].trimmingCharacters(in: .whitespaces)),
              (0...1).contains(threshold) else { return nil }
        return ThresholdScorer(scorer, passingAt: threshold)
    }

    /// One line per built-in scorer, for `--help`: what it measures and whether it decides pass/fail.
    public static let summaries: [(name: String, summary: String)] = [
        ("exact_match", "1 when the output equals the expected text (trimmed, lowercased), else 0"),
        ("exact_match_strict", "1 when the output is identical to the expected text, else 0"),
        ("contains", "1 when the output contains the expected text (normalised), else 0"),
        ("regex", "1 when the case's regex matches somewhere in the output, else 0"),
        ("token_f1", "SQuAD token F1 against the expected text"),
        ("rouge_l", "ROUGE-L F-measure against the expected text"),
        ("field_match", "share of the expected JSON fields the output has with equal values"),
        ("label_match", "1 when the output is one of the case's labels, else 0; decides pass/fail (a wrong label fails the case)"),
    ]
}
