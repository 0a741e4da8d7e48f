/// 1 when ``Reference/regex`` matches somewhere in the output, else 0; nil without a regex or when it does
/// not compile (``Reference/validate()`` reports that at dataset load).
///
/// Swift `Regex` syntax, unanchored (write `^…$` to match the whole output), case-sensitive unless the
/// pattern starts with `(?i)`.
public struct RegexScorer: QualityScorer {
    /// The scorer; it has no options.
    public init() {}

    public var name: String { "regex" }

    public func score(output: String, reference: Reference) -> Double? {
        // Compiled per call: `Regex` is not Sendable, so it cannot be cached in a Sendable scorer.
        guard let pattern = reference.regex, let regex = try? Regex(pattern) else { return nil }
        return output.contains(regex) ? 1 : 0
    }
}
