import Foundation

/// One named dimension a rubric judge scores (`faithfulness`, `concision`…), each with its own scale and meaning,
/// from a rubric file's `dimensions`. The judge gives a score and a short rationale per dimension; both are stored.
public struct RubricDimension: Sendable, Hashable, Codable {
    /// The dimension's name; its score is stored as `judge:NAME`.
    public var name: String
    /// What the dimension rewards, in the judge's words.
    public var description: String
    /// The highest score (the lowest is 1); scores are normalised to 0...1.
    public var scale: Int

    /// A dimension scored from 1 to `scale`.
    public init(name: String, description: String, scale: Int = 5) {
        self.name = name
        self.description = description
        self.scale = scale
    }

    /// The scorer name this dimension's scores are stored under.
    public var scorerName: String { "\(LLMJudge.scorerName):\(name)" }

    /// The score and rationale the judge wrote for this dimension on a line `name: N - reason` of `answer`; nil when
    /// no line names the dimension with a score in its scale.
    func read(_ answer: String) -> (score: Double, rationale: String)? {
        for line in answer.split(whereSeparator: \.isNewline) {
            let text = line.drop { !$0.isLetter }
            guard text.lowercased().hasPrefix(name.lowercased()) else { continue }
            let rest = text.dropFirst(name.count).drop { $0 == ":" || $0 == " " || $0 == "*" || $0 == "=" }
            let digits = rest.prefix { $0.isNumber }
            guard let value = Int(digits), (1...scale).contains(value) else { continue }
            var after = rest.dropFirst(digits.count)
            if after.first == "/" { after = after.dropFirst().drop { $0.isNumber } }  // "4/5"
            let rationale = after.drop { " -–—:.".contains($0) }
            return (Double(value - 1) / Double(max(1, scale - 1)), String(rationale).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
