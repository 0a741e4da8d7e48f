import HybridCore
import HybridRunner
import Testing

@Suite struct SampleScorerTests {
    @Test func structuredOutputReportsParseSchemaAndFieldQualitySeparately() throws {
        let schema = try JSONSchema(["type": "object", "required": ["name", "company"],
                                     "properties": ["name": ["type": "string"], "company": ["type": "string"]]])
        let scorer = SampleScorer(schema: schema, constraints: nil)
        let reference = Reference(expectedFields: ["name": "Ada Lovelace", "company": "Analytical Engines"])

        let good = scorer.score(output: #"{"name": "Ada Lovelace", "company": "Analytical Engines"}"#, reference: reference)
        #expect(good.adherent)
        #expect(good.constraints.map(\.name) == ["json_parses", "schema_valid"])
        #expect(good.quality["field_match"] == 1)
        #expect(good.parsed?["name"] == "Ada Lovelace")

        let missing = scorer.score(output: #"{"name": "Ada Lovelace"}"#, reference: reference)
        #expect(!missing.adherent)
        #expect(missing.constraints.first { $0.name == "schema_valid" }?.passed == false)
        #expect(missing.quality["field_match"] == 0.5)

        let prose = scorer.score(output: "Ada works at Analytical Engines.", reference: reference)
        #expect(prose.constraints.first { $0.name == "json_parses" }?.passed == false)
        #expect(prose.parsed == nil)
    }

    @Test func softConstraintsAndTextScoresComeTogether() {
        let constraints = OutputConstraints(maxSentences: 1, mustNotContain: [.phrase("fish")])
        let scorer = SampleScorer(schema: nil, constraints: constraints)
        let metrics = scorer.score(output: "The cat sat. Then a fish swam.", reference: Reference(expectedText: "The cat sat."))
        #expect(!metrics.adherent)
        #expect(metrics.constraints.filter { !$0.passed }.count == 2)
        #expect(metrics.quality["token_f1"].map { $0 > 0 && $0 < 1 } == true)
        #expect(scorer.score(output: "The cat sat.", reference: nil).quality.isEmpty)
    }
}
