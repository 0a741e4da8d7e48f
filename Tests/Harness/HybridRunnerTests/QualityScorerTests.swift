import Foundation
import HybridCore
import HybridRunner
import Testing

struct ScoreCase: Sendable, CustomTestStringConvertible {
    var output: String
    var reference: String
    var expected: Double
    var testDescription: String { "\(output) vs \(reference)" }
    init(_ output: String, _ reference: String, _ expected: Double) {
        self.output = output
        self.reference = reference
        self.expected = expected
    }
}

@Suite struct QualityScorerTests {
    @Test(arguments: [
        // Articles dropped: [cat, sat] vs [cat, sat, down]; P = 2/2, R = 2/3, F1 = 2·1·(2/3)/(1 + 2/3) = 0.8.
        ScoreCase("the cat sat", "cat sat down", 0.8),
        ScoreCase("The Cat, sat!", "cat sat", 1),
        ScoreCase("dog", "cat", 0),
        // Shared tokens are counted as a multiset: [cat, cat] vs [cat] share 1; P = 1/2, R = 1, F1 = 2/3.
        ScoreCase("cat cat", "cat", 2.0 / 3.0),
        // Both normalise to no tokens, which SQuAD v2 scores as a match.
        ScoreCase("the", "a", 1),
        ScoreCase("", "cat", 0),
    ])
    func tokenF1(_ c: ScoreCase) throws {
        let score = try #require(TokenF1Scorer().score(output: c.output, reference: Reference(expectedText: c.reference)))
        #expect(abs(score - c.expected) < 1e-9)
    }

    /// Lin (2004), section 3.1: reference S1 "police killed the gunman".
    /// S2 "police kill the gunman": LCS = "police the gunman" = 3, P = 3/4, R = 3/4, F1 = 0.75.
    /// S3 "the gunman kill police": LCS = "the gunman" = 2, P = 2/4, R = 2/4, F1 = 0.5.
    /// "police killed the gunman yesterday": LCS = 4, P = 4/5, R = 4/4, F1 = 2·0.8·1/1.8 = 8/9.
    @Test(arguments: [
        ScoreCase("police kill the gunman", "police killed the gunman", 0.75),
        ScoreCase("the gunman kill police", "police killed the gunman", 0.5),
        ScoreCase("Police killed the gunman yesterday.", "police killed the gunman", 8.0 / 9.0),
        ScoreCase("police killed the gunman", "police killed the gunman", 1),
        ScoreCase("nothing shared", "police killed the gunman", 0),
    ])
    func rougeL(_ c: ScoreCase) throws {
        let score = try #require(RougeLScorer().score(output: c.output, reference: Reference(expectedText: c.reference)))
        #expect(abs(score - c.expected) < 1e-9)
    }

    @Test(arguments: [
        ("  Paris\n", "paris", 1.0, 0.0),
        ("The   Eiffel tower", "the eiffel TOWER", 1.0, 0.0),
        ("Paris", "Paris", 1.0, 1.0),
        ("Paris.", "Paris", 0.0, 0.0),
        ("Lyon", "Paris", 0.0, 0.0),
    ])
    func exactMatch(output: String, expected: String, normalised: Double, strict: Double) {
        let reference = Reference(expectedText: expected)
        #expect(ExactMatchScorer().score(output: output, reference: reference) == normalised)
        #expect(ExactMatchScorer(strict: true).score(output: output, reference: reference) == strict)
        #expect(ExactMatchScorer(strict: true).name == "exact_match_strict")
    }

    @Test func containsIsCaseAndWhitespaceInsensitive() {
        let reference = Reference(expectedText: "Eiffel  Tower")
        #expect(ContainsScorer().score(output: "It is the eiffel\ntower, in Paris.", reference: reference) == 1)
        #expect(ContainsScorer().score(output: "It is the Louvre.", reference: reference) == 0)
    }

    @Test(arguments: [
        ("^\\d{4}-\\d{2}-\\d{2}$", "2025-06-30", 1.0),
        ("^\\d{4}-\\d{2}-\\d{2}$", "on 2025-06-30", 0.0),
        ("yes|no", "I think no.", 1.0),
        ("(?i)YES", "yes", 1.0),
        ("YES", "yes", 0.0),
    ])
    func regex(pattern: String, output: String, expected: Double) {
        #expect(RegexScorer().score(output: output, reference: Reference(regex: pattern)) == expected)
    }

    @Test func invalidRegexScoresNilAndFailsValidation() {
        let reference = Reference(regex: "(unclosed")
        #expect(RegexScorer().score(output: "x", reference: reference) == nil)
        #expect(throws: ReferenceError.self) { try reference.validate() }
    }

    @Test(arguments: [
        ("```json\n{\"name\": \"Ada\", \"age\": 36.0, \"city\": \"London\"}\n```", 1.0),
        (#"{"name": "Ada", "age": 37, "city": "London", "extra": true}"#, 2.0 / 3.0),
        (#"{"name": "ada", "age": 36}"#, 1.0 / 3.0),
        ("[1, 2]", 0.0),
        ("not json", 0.0),
    ])
    func fieldMatch(output: String, expected: Double) throws {
        let reference = Reference(expectedFields: ["name": "Ada", "age": 36, "city": "London"])
        let score = try #require(FieldMatchScorer().score(output: output, reference: reference))
        #expect(abs(score - expected) < 1e-9)
    }

    @Test func fieldMatchCanNormaliseStrings() {
        let reference = Reference(expectedFields: ["name": "Ada Lovelace"])
        #expect(FieldMatchScorer().score(output: #"{"name": " ada  lovelace"}"#, reference: reference) == 0)
        #expect(
            FieldMatchScorer(normalizeStrings: true).score(output: #"{"name": " ada  lovelace"}"#, reference: reference)
                == 1)
    }

    @Test(arguments: [
        ("positive", 1.0),
        ("**Positive.**", 1.0),
        ("\"neutral\"\n", 1.0),
        ("It is positive", 0.0),
        ("negative", 0.0),
    ])
    func labelMatch(output: String, expected: Double) {
        let reference = Reference(labels: ["Positive", "neutral"])
        #expect(LabelMatchScorer().score(output: output, reference: reference) == expected)
    }

    @Test func scorersWithoutTheirReferenceReturnNil() {
        let empty = Reference()
        for scorer in StandardScorers.all {
            #expect(scorer.score(output: "anything", reference: empty) == nil, "\(scorer.name)")
        }
        let scores = StandardScorers.all.scores(output: "cat sat", reference: Reference(expectedText: "cat sat"))
        #expect(scores.keys.sorted() == ["contains", "exact_match", "exact_match_strict", "rouge_l", "token_f1"])
        #expect(scores.values.allSatisfy { $0 == 1 })
    }

    @Test func standardScorersHaveUniqueNames() {
        #expect(Set(StandardScorers.names).count == StandardScorers.all.count)
        #expect(StandardScorers.named("rouge_l") is RougeLScorer)
        #expect(StandardScorers.named("bleu") == nil)
    }

    @Test func referenceDecodesAndRejectsUnknownKeys() throws {
        let json = #"{"expectedText": "Paris", "expectedFields": {"n": 1}, "labels": ["a"], "regex": "^P"}"#
        let reference = try JSONDecoder().decode(Reference.self, from: Data(json.utf8))
        #expect(reference == Reference(expectedText: "Paris", expectedFields: ["n": 1], labels: ["a"], regex: "^P"))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Reference.self, from: Data(#"{"expected": "Paris"}"#.utf8))
        }
    }
}
