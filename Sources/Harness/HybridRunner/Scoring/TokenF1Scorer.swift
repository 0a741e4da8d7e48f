/// SQuAD-style token F1 between the output and ``Reference/expectedText``; nil without expected text.
///
/// Both sides are normalised as SQuAD's `normalize_answer` does (see ``TextNormalizer/squadTokens(_:)``),
/// then F1 = 2·P·R / (P + R) over the multiset of shared tokens. Two empty token lists score 1, one empty
/// list scores 0, as in the SQuAD v2 evaluation script.
public struct TokenF1Scorer: QualityScorer {
    /// The scorer; it has no options.
    public init() {}

    public var name: String { "token_f1" }

    public func score(output: String, reference: Reference) -> Double? {
        guard let expected = reference.expectedText else { return nil }
        return Self.f1(prediction: TextNormalizer.squadTokens(output), reference: TextNormalizer.squadTokens(expected))
    }

    static func f1(prediction: [String], reference: [String]) -> Double {
        if prediction.isEmpty || reference.isEmpty { return prediction.isEmpty && reference.isEmpty ? 1 : 0 }
        let shared = sharedCount(prediction, reference)
        guard shared > 0 else { return 0 }
        let precision = Double(shared) / Double(prediction.count)
        let recall = Double(shared) / Double(reference.count)
        return 2 * precision * recall / (precision + recall)
    }

    /// The size of the multiset intersection. Short answers (most of an eval's) are matched pair by pair: building
    /// and growing a dictionary for a handful of tokens cost more than comparing them all.
    static func sharedCount(_ prediction: [String], _ reference: [String]) -> Int {
        var shared = 0
        if prediction.count * reference.count <= 1_024 {
            var used = [Bool](repeating: false, count: reference.count)
            for token in prediction {
                if let match = reference.indices.first(where: { !used[$0] && reference[$0] == token }) {
                    used[match] = true
                    shared += 1
                }
            }
            return shared
        }
        var remaining = [String: Int](minimumCapacity: reference.count)
        for token in reference { remaining[token, default: 0] += 1 }
        for token in prediction {
            if let left = remaining[token], left > 0 {
                remaining[token] = left - 1
                shared += 1
            }
        }
        return shared
    }
}
