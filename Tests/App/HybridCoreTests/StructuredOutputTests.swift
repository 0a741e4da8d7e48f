import Foundation
@testable import HybridCore
@testable import HybridValidation
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
        static let guides: [String: JSONValue] = [
            "population": ["description": "Inhabitants of the city proper", "minimum": 0],
            "sights[].name": ["description": "As signposted"],
        ]
        static let typeDescription: String? = "A city for a travel app"
    }

    @Test("a guide naming a property the type does not have, an unknown keyword or one for another kind is an error at first use")
    func misspeltGuidesAreErrors() {
        func failure(_ guides: [String: JSONValue]) -> String? {
            do {
                _ = try SchemaDerivation.schema(of: CityInfo.self, guides: guides)
                return nil
            } catch {
                return error.description
            }
        }
        let typo = failure(["populaton": ["description": "typo"], "sights[].nme": ["description": "typo"], "name": ["description": "ok"]])
        #expect(typo?.contains("\"populaton\", \"sights[].nme\"") == true, "\(String(describing: typo))")
        #expect(typo?.contains("sights[].name") == true)
        #expect(failure(["sights": ["maxItem": 3]])?.contains("\"maxItem\" is not a guide keyword") == true)
        #expect(failure(["name": ["maxItems": 3]])?.contains("\"maxItems\" applies to array values; this is string") == true)
        #expect(failure(["name": "just a string"])?.contains("a guide is an object") == true)
        #expect(failure(["sights": ["minItems": 1, "maxItems": 3], "population": ["maximum": 40_000_000]]) == nil)
    }

    @Test("guides reach the schema and are checked on the answer like any schema rule")
    func guidesAreSentAndChecked() throws {
        struct Trip: StructuredOutput {
            var stops: [String]
            var rating: Int
            var code: String
            static let guides: [String: JSONValue] = [
                "stops": ["description": "Three stops", "minItems": 3, "maxItems": 3],
                "rating": ["minimum": 1, "maximum": 5], "code": ["pattern": "^[A-Z]{3}$"],
            ]
        }
        #expect(Trip.schema["properties"]?["stops"] == ["type": "array", "items": ["type": "string"], "description": "Three stops", "minItems": 3, "maxItems": 3])
        let check = StructuredOutputCheck(schema: try Trip.jsonSchema)
        #expect(check.check(#"{"stops": ["a", "b", "c"], "rating": 4, "code": "LYS"}"#).violations.isEmpty)
        for broken in [#"{"stops": ["a", "b", "c", "d", "e", "f"], "rating": 4, "code": "LYS"}"#, #"{"stops": ["a", "b", "c"], "rating": 9, "code": "LYS"}"#,
                       #"{"stops": ["a", "b", "c"], "rating": 4, "code": "lyon"}"#] {
            #expect(!check.check(broken).violations.isEmpty, "\(broken)")
        }
    }

    @Test func theSchemaIsDerivedStrictAndDescribed() throws {
        let schema = CityInfo.schema
        let properties = try #require(schema["properties"]?.objectValue)
        #expect(schema["required"] == ["name", "population", "founded", "sights", "scores"])
        #expect(schema["additionalProperties"] == false)
        #expect(schema["description"] == "A city for a travel app")
        #expect(properties["name"] == ["type": "string"])
        #expect(properties["population"] == ["type": ["integer", "null"], "description": "Inhabitants of the city proper", "minimum": 0])
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
