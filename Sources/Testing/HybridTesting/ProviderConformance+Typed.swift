import Foundation
public import HybridCore
public import HybridRouter
import HybridTestSupport
import Testing

extension ProviderConformance {
    /// The type typed checks decode into: the structured fixtures' person, its schema derived from `Decodable`.
    public struct Person: StructuredOutput, Equatable {
        public var name: String
        public var company: String
        public static let guides: [String: JSONValue] = ["company": ["description": "The employer, as written"]]
    }

    /// A type the person decodes into only at one company: a schema-valid answer that does not decode.
    struct PickyPerson: StructuredOutput {
        var name: String
        var company: String
        enum CodingKeys: String, CodingKey { case name, company }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            company = try container.decode(String.self, forKey: .company)
            guard company != "Analytical Engines Ltd" else {
                throw DecodingError.dataCorruptedError(forKey: .company, in: container, debugDescription: "not this one")
            }
        }
        static var schema: JSONValue {
            get throws(StructuredOutputError) { try Person.schema }
        }
    }

    /// The structured request with `T`'s derived schema.
    static func typedRequest<T: StructuredOutput>(_ type: T.Type) throws -> GenerationRequest {
        var request = structuredRequest
        request.responseSchema = try T.schema
        return request
    }

    /// Typed output: the derived schema goes out in the provider's native form and the answer decodes into the type;
    /// streamed, the JSON's complete part only grows and ends as the decoded value.
    public static func typedOutput(_ fixture: any ProviderFixture) async throws {
        let once = try Self.harness(fixture) { Self.served(fixture.structured) }
        defer { once.server.stop() }
        let response = try await once.model.generate(typedRequest(Person.self))
        let person = try JSONValueDecoder().decode(Person.self, from: try #require(response.structured))
        #expect(person == Person(name: "Ada Lovelace", company: "Analytical Engines Ltd"))
        try expectDescriptionSent(try #require(once.server.requests.first))

        let streamed = try Self.harness(fixture) { Self.served(fixture.structuredStream) }
        defer { streamed.server.stop() }
        let run = await ConformanceChecks.run(streamed.model.stream(try typedRequest(Person.self)))
        #expect(run.error == nil, "\(String(describing: run.error))")
        var text = ""
        var memberCounts: [Int] = []
        for delta in run.deltas {
            text += delta
            memberCounts.append(PartialJSON.parse(text)?.objectValue?.count ?? 0)
        }
        #expect(memberCounts == memberCounts.sorted(), "partial values must only grow: \(memberCounts)")
        #expect(PartialJSON.parse(text) == Self.personExpected)
        try expectDescriptionSent(try #require(streamed.server.requests.first))
        try expectDeclarationOrderSent(try #require(streamed.server.requests.first))
        try await typedPartials(fixture)
    }

    /// The schema's properties reach the wire in the type's declaration order (`name` before `company`, against the
    /// alphabet), the order a model generates them in.
    static func expectDeclarationOrderSent(_ request: RecordedRequest) throws {
        let body = String(decoding: request.body, as: UTF8.self)
        let name = try #require(body.range(of: "\"name\""), "no name property in \(body)")
        let company = try #require(body.range(of: "\"company\""), "no company property in \(body)")
        #expect(name.lowerBound < company.lowerBound, "properties not in declaration order: \(body)")
    }

    /// Through the router, on this provider's stream: the typed partial value only grows (a property once shown
    /// never changes or disappears) and the last one equals the decoded final value.
    static func typedPartials(_ fixture: any ProviderFixture) async throws {
        let harness = try Self.harness(fixture) { Self.served(fixture.structuredStream) }
        defer { harness.server.stop() }
        let router = try Router(models: [.model(harness.model)])
        let final = try await expectGrowingPartials(
            router.streamResponse(to: "Ada Lovelace works at Analytical Engines Ltd.", generating: Person.self))
        #expect(final == Person(name: "Ada Lovelace", company: "Analytical Engines Ltd"))
    }

    /// Reads a typed stream of `Person`, checking what `PartiallyGenerated` promises: nothing before something is
    /// known, each snapshot's partial extends the one before (a string grows, never changes what it showed), the
    /// properties arrive in declaration order (`name` before `company`), and the last partial is the final value;
    /// returns that value.
    public static func expectGrowingPartials(_ stream: RouterStream<PartialSnapshot<Person>>) async throws -> Person {
        var seen: [(name: String?, company: String?)] = []
        var final: Person?
        for try await snapshot in stream {
            let now = (name: snapshot.partial.name, company: snapshot.partial.company)
            #expect(now.name != nil || now.company != nil || snapshot.completed != nil, "a snapshot with nothing known")
            if let before = seen.last {
                #expect(Self.extends(now.name, before.name), "the name changed: \(before) → \(now)")
                #expect(Self.extends(now.company, before.company), "the company changed: \(before) → \(now)")
            }
            #expect(now.company == nil || now.name != nil, "company before name: \(now)")
            seen.append(now)
            if snapshot.completed != nil { final = snapshot.content }
        }
        let value = try #require(final, "the stream ended without a final value")
        #expect(seen.last?.name == value.name && seen.last?.company == value.company)
        #expect(seen.count >= 2, "one snapshot only: nothing streamed")
        return value
    }

    /// Whether `now` keeps what `before` showed: equal, or a string grown from it.
    static func extends(_ now: String?, _ before: String?) -> Bool {
        guard let before else { return true }
        guard let now else { return false }
        return now.hasPrefix(before)
    }

    /// The type's schema reached the wire, whatever its native form: its property description is in the body.
    static func expectDescriptionSent(_ request: RecordedRequest) throws {
        let body = String(decoding: request.body, as: UTF8.self)
        #expect(body.contains("The employer, as written"), "the derived schema is not in the request: \(body)")
    }

    /// An answer that is valid against the schema but does not decode into the app's type falls back to the next
    /// model, through the router, on this provider's wire format.
    public static func typedFallback(_ fixture: any ProviderFixture) async throws {
        let harness = try Self.harness(fixture) { Self.served(fixture.structured) }
        defer { harness.server.stop() }
        let backup = ScriptedLanguageModel(
            id: "backup", tier: .thirdParty, script: [.reply(#"{"name": "Ada Lovelace", "company": "Babbage & Co"}"#)])
        let router = try Router(models: [.model(harness.model), .model(backup)])
        let answer = try await router.respond(to: "Ada Lovelace works at Analytical Engines Ltd.", generating: PickyPerson.self)
        #expect(answer.routed.servedBy.id == "backup" && answer.content.company == "Babbage & Co")
        let first = try #require(answer.routed.attempts.first)
        #expect(first.modelID == harness.model.id && first.outcome.checkFailures.map(\.name) == [DecodeCheck.resultName])
    }
}
