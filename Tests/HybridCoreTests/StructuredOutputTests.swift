import Foundation
import HybridCore
import Testing

/// The schema an app's Swift type sends to models, derived from `Decodable`, and the partial values of a stream.
@Suite("Structured output")
struct StructuredOutputTests {
    enum Kind: String, StructuredChoice { case museum, park, restaurant }

    struct Sight: Decodable, Sendable {
        var name: String
        var kind: Kind
    }

    struct CityInfo: StructuredOutput {
        var name: String
        var population: Int?
        var founded: Date?
        var sights: [Sight]
        var scores: [String: Double]
        static let descriptions = ["population": "Inhabitants of the city proper", "sights[].name": "As signposted"]
        static let typeDescription: String? = "A city for a travel app"
    }

    @Test("a description naming a property the type does not have is an error at first use, naming it and the properties")
    func aMisspeltDescriptionIsAnError() {
        do {
            _ = try SchemaDerivation.schema(of: CityInfo.self, descriptions: ["populaton": "typo", "sights[].nme": "typo", "name": "ok"])
            Issue.record("a misspelt description was accepted")
        } catch {
            #expect(error.message.contains("\"populaton\", \"sights[].nme\""), "\(error)")
            #expect(error.message.contains("population") && error.message.contains("sights[].name"), "\(error)")
        }
    }

    @Test func theSchemaIsDerivedStrictAndDescribed() throws {
        let schema = CityInfo.schema
        let properties = try #require(schema["properties"]?.objectValue)
        #expect(schema["required"] == ["name", "population", "founded", "sights", "scores"])
        #expect(schema["additionalProperties"] == false)
        #expect(schema["description"] == "A city for a travel app")
        #expect(properties["name"] == ["type": "string"])
        #expect(properties["population"] == ["type": ["integer", "null"], "description": "Inhabitants of the city proper"])
        #expect(properties["founded"] == ["type": ["string", "null"], "format": "date-time"])
        let sight = try #require(properties["sights"]?["items"])
        #expect(sight["properties"]?["kind"] == ["type": "string", "enum": ["museum", "park", "restaurant"]])
        #expect(sight["properties"]?["name"]?["description"] == "As signposted")
        #expect(properties["scores"] == ["type": "object", "additionalProperties": ["type": "number"]])
        // The validator takes it, and an answer that matches decodes into the type.
        let validator = try CityInfo.jsonSchema
        let answer = try JSONValue(parsing: """
            {"name":"Lyon","population":null,"founded":null,"sights":[{"name":"Fourvière","kind":"museum"}],"scores":{"food":9.5}}
            """)
        #expect(validator.validate(answer).isEmpty)
        let city = try JSONValueDecoder().decode(CityInfo.self, from: answer)
        #expect(city.sights.first?.kind == .museum && city.population == nil)
    }

    struct Positive: StructuredOutput {
        var count: Int
        init(from decoder: any Decoder) throws {
            count = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .count)
            guard count > 0 else { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not positive")) }
        }
        enum CodingKeys: String, CodingKey { case count }
        static let schema: JSONValue = ["type": "object", "properties": ["count": ["type": "integer"]], "required": ["count"]]
    }

    @Test func decodesIsACheckOfItsOwn() throws {
        let checks = OutputChecks(schema: try Positive.jsonSchema, constraints: nil)
        var typed = checks
        typed.decodes = DecodeCheck(Positive.self)
        #expect(checks.evaluate(#"{"count": 0}"#).adherent)
        let result = typed.evaluate(#"{"count": 0}"#)
        #expect(!result.adherent)
        #expect(result.results.map(\.name) == ["json_parses", "schema_valid", "decodes"])
        #expect(result.failures.first?.message.contains("not positive") == true)
        #expect(typed.evaluate(#"{"count": 2}"#).adherent)
        #expect(OutputChecks.schemaResultNames.contains("decodes"))
    }

    @Test func partialJSONShowsWhatIsKnownAndStringsGrow() {
        let full = #"```json\n{"name": "Lyon", "sights": [{"name": "Fourvière", "kind": "museum"}, {"name": "Parc"#
        #expect(PartialJSON.parse("Sure: ") == nil)
        #expect(PartialJSON.parse(#"{"name": "Ly"#) == ["name": "Ly"])
        #expect(PartialJSON.parse(#"{"name": ""#) == [:], "nothing of the string known yet")
        #expect(PartialJSON.parse(#"{"na"#) == [:], "a key appears only whole")
        // An escape or a UTF-8 character cut at the end waits for the rest.
        #expect(PartialJSON.parse(#"{"a": "x \"#) == ["a": "x "])
        #expect(PartialJSON.parse(#"{"a": "x \u00e"#) == ["a": "x "])
        #expect(PartialJSON.parse(#"{"a": "x \u00e9"#) == ["a": "x é"])
        let cut = String(decoding: Array(#"{"a": "Fourvi"#.utf8) + [0xC3], as: UTF8.self)
        #expect(PartialJSON.read(cut)?.value == ["a": "Fourvi"] || PartialJSON.read(cut)?.value == ["a": "Fourvi\u{FFFD}"])
        #expect(PartialJSON.read(#"{"a": 1}"#)?.complete == true)
        #expect(PartialJSON.read(#"{"a": "1"#)?.complete == false)
        #expect(PartialJSON.parse(#"{"name": "Lyon", "population": 51"#) == ["name": "Lyon"])
        #expect(PartialJSON.parse(#"{"name": "Lyon", "population": 513275,"#) == ["name": "Lyon", "population": 513275])
        #expect(PartialJSON.parse(full) == ["name": "Lyon", "sights": [["name": "Fourvière", "kind": "museum"], ["name": "Parc"]]])
        #expect(PartialJSON.parse(#"{"a": "x \" y", "b": true}"#) == ["a": "x \" y", "b": true])
    }
}
