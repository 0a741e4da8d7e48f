import Foundation
@testable import HybridCore
@testable import HybridValidation
import Testing

/// The schema an app's Swift type sends to models, derived from `Decodable`, and the partial values of a stream.
@Suite("Structured output")
struct StructuredOutputTests {
    enum Kind: String, Codable, CaseIterable, Sendable { case museum, park, restaurant }

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

    @Test("a guide naming a property the type does not have, an unknown keyword or one for another kind is a thrown error naming the type and the guide")
    func misspeltGuidesAreErrors() {
        func failure(_ guides: [String: JSONValue]) -> StructuredOutputError? {
            do {
                _ = try SchemaDerivation.schema(of: CityInfo.self, guides: guides)
                return nil
            } catch {
                return error
            }
        }
        let typo = failure(["populaton": ["description": "typo"], "sights[].nme": ["description": "typo"], "name": ["description": "ok"]])
        #expect(typo?.typeName == "CityInfo" && typo?.path == "populaton")
        let message = typo?.description ?? ""
        #expect(message.hasPrefix("CityInfo.guides names \"populaton\" (did you mean \"population\"?), \"sights[].nme\" (did you mean \"sights[].name\"?), which CityInfo does not have"), "\(message)")
        #expect(failure(["zzzzzzzz": ["description": "far from every name"]])?.description.contains("did you mean") == false)
        #expect(failure(["sights": ["maxItem": 3]])?.description.contains("CityInfo.guides[\"sights\"]: \"maxItem\" is not a guide keyword") == true)
        #expect(failure(["name": ["maxItems": 3]])?.description.contains("\"maxItems\" applies to array values; this is string") == true)
        #expect(failure(["name": "just a string"])?.description.contains("a guide is an object") == true)
        #expect(failure(["sights": ["minItems": 1, "maxItems": 3], "population": ["maximum": 40_000_000]]) == nil)
    }

    enum Priority: String, Codable, CaseIterable { case low, medium, high }
    enum Stars: Int, Codable, CaseIterable { case one = 1, two, three }

    struct Ticket: StructuredOutput {
        var priority: Priority
        var stars: Stars
        var escalation: Priority?
        var history: [Stars]
        static let guides: [String: JSONValue] = ["priority": ["description": "How urgent"]]
    }

    @Test("a String- or Int-backed CaseIterable enum, plain or optional or in an array, is an enum of its raw values with no extra conformance")
    func rawValueEnumsAreChoices() throws {
        let properties = try #require(try Ticket.schema["properties"])
        #expect(properties["priority"] == ["type": "string", "enum": ["low", "medium", "high"], "description": "How urgent"])
        #expect(properties["stars"] == ["type": "integer", "enum": [1, 2, 3]])
        #expect(properties["escalation"] == ["anyOf": [["type": "string", "enum": ["low", "medium", "high"]], ["type": "null"]]])
        #expect(properties["history"] == ["type": "array", "items": ["type": "integer", "enum": [1, 2, 3]]])
        try Ticket.validateSchema()
        // An answer within the cases passes the schema and decodes.
        let answer: JSONValue = ["priority": "high", "stars": 2, "escalation": nil, "history": [1, 3]]
        #expect(try Ticket.jsonSchema.validate(answer).isEmpty)
        let ticket = try JSONValueDecoder().decode(Ticket.self, from: answer)
        #expect(ticket.priority == .high && ticket.stars == .two && ticket.history == [.one, .three])
    }

    @Test("an answer with a value outside the enum's cases fails the schema and decoding with errors that name it, never a crash")
    func answersOutsideTheCasesAreErrors() throws {
        let answer: JSONValue = ["priority": "urgent", "stars": 5, "escalation": nil, "history": []]
        let violations = try Ticket.jsonSchema.validate(answer).map { "\($0)" }.joined(separator: "\n")
        #expect(violations.contains("priority") && violations.contains("stars"), "\(violations)")
        let check = DecodeCheck(Ticket.self).check(answer)
        #expect(!check.passed)
        #expect(check.message.contains("does not decode as Ticket") && check.message.contains("urgent"), "\(check.message)")
    }

    struct Misspelt: StructuredOutput {
        var tags: [String]
        static let guides: [String: JSONValue] = ["tag": ["maxItems": 3]]
    }

    enum Mood: String, Codable { case happy, sad }
    struct Diary: StructuredOutput { var mood: Mood }

    /// Swift refuses an empty raw-value enum; a hand-written `CaseIterable` can still list no case.
    struct Retired: RawRepresentable, CaseIterable, Decodable, Sendable {
        var rawValue: String
        static let allCases: [Retired] = []
    }
    struct Empty: StructuredOutput { var value: Retired }

    @Test("validateSchema finds a misspelt guide, a raw-value enum that is not CaseIterable and an enum without cases")
    func validateSchemaFindsMistakes() {
        #expect {
            try Misspelt.validateSchema()
        } throws: { error in
            let error = error as? StructuredOutputError
            return error?.typeName == "Misspelt" && error?.path == "tag"
                && error?.description.contains("(did you mean \"tags\"?)") == true
        }
        #expect {
            try Diary.validateSchema()
        } throws: { error in
            let error = error as? StructuredOutputError
            return error?.typeName == "Diary" && error?.path == "mood"
                && error?.description.contains("Mood is RawRepresentable but not CaseIterable; add CaseIterable") == true
        }
        #expect {
            try Empty.validateSchema()
        } throws: { error in
            (error as? StructuredOutputError)?.description.contains("Empty.value") == true
        }
        #expect(throws: Never.self) { try CityInfo.validateSchema() }
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
        #expect(try Trip.schema["properties"]?["stops"] == ["type": "array", "items": ["type": "string"], "description": "Three stops", "minItems": 3, "maxItems": 3])
        let check = StructuredOutputCheck(schema: try Trip.jsonSchema)
        #expect(check.check(#"{"stops": ["a", "b", "c"], "rating": 4, "code": "LYS"}"#).violations.isEmpty)
        for broken in [#"{"stops": ["a", "b", "c", "d", "e", "f"], "rating": 4, "code": "LYS"}"#, #"{"stops": ["a", "b", "c"], "rating": 9, "code": "LYS"}"#,
                       #"{"stops": ["a", "b", "c"], "rating": 4, "code": "lyon"}"#] {
            #expect(!check.check(broken).violations.isEmpty, "\(broken)")
        }
    }

    @Test func theSchemaIsDerivedStrictAndDescribed() throws {
        let schema = try CityInfo.schema
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
