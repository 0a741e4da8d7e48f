import HybridCore

/// The fraction of ``Reference/expectedFields`` that the output, parsed as a JSON object, has with an equal
/// value; nil without expected fields.
///
/// The output goes through ``StructuredOutputCheck`` (so a ```` ```json ```` fence is stripped); output that is
/// not a JSON object scores 0. Only top-level members are compared; a nested expected value must match as a
/// whole. Values compare as JSON (`1` equals `1.0`); with `normalizeStrings`, strings also compare after
/// trimming, collapsing white space and lowercasing. Extra output members do not lower the score (the
/// schema check is the place to forbid them).
public struct FieldMatchScorer: QualityScorer {
    /// Compare string values after trimming, collapsing white space and lowercasing.
    public var normalizeStrings: Bool

    /// A scorer; strings compare exactly unless `normalizeStrings`.
    public init(normalizeStrings: Bool = false) {
        self.normalizeStrings = normalizeStrings
    }

    public var name: String { "field_match" }

    public func score(output: String, reference: Reference) -> Double? {
        guard let expected = reference.expectedFields, !expected.isEmpty else { return nil }
        guard case .object(let actual) = StructuredOutputCheck(schema: nil).check(output).value else { return 0 }
        let matching = expected.count { key, value in
            guard let got = actual[key] else { return false }
            return matches(got, value)
        }
        return Double(matching) / Double(expected.count)
    }

    private func matches(_ actual: JSONValue, _ expected: JSONValue) -> Bool {
        if normalizeStrings, case .string(let a) = actual, case .string(let e) = expected {
            return TextNormalizer.collapsedLowercased(a) == TextNormalizer.collapsedLowercased(e)
        }
        return actual.isEquivalent(to: expected)
    }
}
