/// ROUGE-L F-measure (Lin, 2004) between the output and ``Reference/expectedText``; nil without expected text.
///
/// P = LCS/|output|, R = LCS/|reference| over tokens (``TextNormalizer/rougeTokens(_:)``), and
/// F = (1 + β²)·P·R / (R + β²·P) with β = 1, i.e. the harmonic mean. Lin's paper leaves β free (DUC used a
/// very large β, which is recall alone); β = 1 is what Google's `rouge-score` package reports as `fmeasure`
/// for `rougeL`, so values here are comparable with it (without stemming). Empty token lists: both empty
/// scores 1, one empty scores 0.
public struct RougeLScorer: QualityScorer {
    /// The scorer; it has no options.
    public init() {}

    public var name: String { "rouge_l" }

    public func score(output: String, reference: Reference) -> Double? {
        guard let expected = reference.expectedText else { return nil }
        return Self.fMeasure(
            prediction: TextNormalizer.rougeTokens(output), reference: TextNormalizer.rougeTokens(expected))
    }

    static func fMeasure(prediction: [String], reference: [String]) -> Double {
        if prediction.isEmpty || reference.isEmpty { return prediction.isEmpty && reference.isEmpty ? 1 : 0 }
        let lcs = Self.lcsLength(prediction, reference)
        guard lcs > 0 else { return 0 }
        let precision = Double(lcs) / Double(prediction.count)
        let recall = Double(lcs) / Double(reference.count)
        return 2 * precision * recall / (precision + recall)
    }

    /// Length of the longest common subsequence, in O(n·m) time and O(m) memory.
    static func lcsLength(_ a: [String], _ b: [String]) -> Int {
        var previous = [Int](repeating: 0, count: b.count + 1)
        var current = previous
        for x in a {
            for (j, y) in b.enumerated() {
                current[j + 1] = x == y ? previous[j] + 1 : max(previous[j + 1], current[j])
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
