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
}
