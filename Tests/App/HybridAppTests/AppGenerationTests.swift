import Foundation
import HybridAI
import HybridTestSupport
import Synchronization
import Testing

/// What a developer coming from FoundationModels reaches for, through the public API only (#49): typed partials that
/// grow in declaration order, guides that are checked, a request's whole cost, tools with typed arguments and a
/// plain session that keeps its transcript.
@Suite("The app API as a FoundationModels developer uses it")
struct AppGenerationTests {
    struct City: StructuredOutput {
        var name: String
        var country: String
        var landmarks: [String]
        static let guides: [String: JSONValue] = ["landmarks": ["description": "Famous sights, by name", "maxItems": 2]]
    }

    static let cityJSON = #"{"name": "Porto Alegre", "country": "Brazil", "landmarks": ["Usina do Gasometro", "Mercado Publico"]}"#

    static func router(_ models: [any LanguageModel], sink: InMemoryEventSink? = nil) throws -> Router {
        try Router(models: models.map { .model($0) }, installId: "install-1", stateDirectory: nil, eventSink: sink)
    }

    @Test("a typed stream: fields in declaration order, strings that only grow, the last partial equal to the value")
    func partialsGrowInDeclarationOrder() async throws {
        let model = ScriptedLanguageModel(id: "device", script: [.reply(Self.cityJSON)])
        var names: [String] = []
        var firstSeen: [String] = []
        var last: City?
        for try await snapshot in try Self.router([model]).streamResponse(to: "A city", generating: City.self) {
            if let name = snapshot.partial.name { names.append(name) }
            for (field, known) in [("name", snapshot.partial.name != nil), ("country", snapshot.partial.country != nil),
                                   ("landmarks", snapshot.partial.landmarks != nil)] where known && !firstSeen.contains(field) {
                firstSeen.append(field)
            }
            if let content = snapshot.content { last = content }
        }
        #expect(firstSeen == ["name", "country", "landmarks"])
        #expect(names.first == "Porto " && names.last == "Porto Alegre", "the name grew word by word: \(names)")
        #expect(zip(names, names.dropFirst()).allSatisfy { $1.hasPrefix($0) })
        #expect(last?.landmarks == ["Usina do Gasometro", "Mercado Publico"])
        let schema = try City.schema
        #expect(schema["properties"]?["landmarks"]?["maxItems"] == 2)
    }

    @Test("an answer that breaks a guide fails the schema check, and the router falls back as for any schema violation")
    func aGuideIsChecked() async throws {
        let tooMany = #"{"name": "Rome", "country": "Italy", "landmarks": ["Colosseum", "Pantheon", "Trevi Fountain"]}"#
        let first = ScriptedLanguageModel(id: "device", script: [.reply(tooMany)])
        let second = ScriptedLanguageModel(id: "cloud", tier: .thirdParty, script: [.reply(Self.cityJSON)])
        let city = try await Self.router([first, second]).respond(to: "A city", generating: City.self)
        #expect(city.routed.servedBy.id == "cloud")
        #expect(city.content.landmarks.count == 2)
        let failed = try #require(city.routed.attempts.first?.outcome)
        #expect("\(failed)".contains("maxItems"), "the first answer failed on the guide: \(failed)")
    }

    @Test("a request's cost and tokens sum every call it made, the hedge's loser included, as its field event does")
    func totalsIncludeTheHedgeLoser() async throws {
        let slow = ScriptedLanguageModel(id: "device", script: [.reply("slow answer", after: .seconds(5))])
        let fast = ScriptedLanguageModel(id: "cloud", tier: .thirdParty, script: [.reply("fast answer", usage: TokenUsage(promptTokens: 40, completionTokens: 10))])
        let priced = { (tier: ModelTier, input: Double, output: Double) in
            ModelConfig(
                kind: .openAICompatible, baseURL: "http://127.0.0.1:9/v1", model: "m", tier: tier, apiKeyEnv: "UNUSED_KEY",
                pricing: ModelPricing(inputPerMillion: input, outputPerMillion: output), contextWindow: 4096,
                capabilities: .init(structuredOutput: false, streaming: true))
        }
        let feature = FeatureConfig(
            variants: ["v": PromptVariant(template: "{{input}}")], defaultVariant: "v", priority: ["device", "cloud"], privacy: .open,
            routing: RoutingConfig(hedge: HedgeConfig(afterMs: 20)))
        let document = HybridConfigDocument(
            version: 1, models: ["device": priced(.onDevice, 1_000, 2_000), "cloud": priced(.thirdParty, 3_000, 4_000)], features: ["ask": feature])
        let sink = InMemoryEventSink()
        let router = try Router(config: .fixed(document), models: .models(["device": slow, "cloud": fast]), installId: "i", eventSink: sink)
        let routed = try await router.generate(feature: "ask", input: ["input": "hello there"])

        #expect(routed.servedBy.id == "cloud")
        let loser = try #require(routed.attempts.first { $0.modelID == "device" }?.usage, "the loser is billed on its prompt")
        #expect(routed.totalUsage.promptTokens == 40 + loser.promptTokens)
        #expect(routed.totalUsage.completionTokens == 10 + loser.completionTokens)
        #expect(routed.response.usage.promptTokens == 40, "the answer's own usage stays the answer's")
        let expected = (40 * 3_000.0 + 10 * 4_000 + Double(loser.promptTokens) * 1_000 + Double(loser.completionTokens) * 2_000) / 1_000_000
        #expect(abs(try #require(routed.totalCostUSD) - expected) < 1e-12)
        #expect(abs(try #require(sink.events.first).costUSD - (try #require(routed.totalCostUSD))) < 1e-12)
    }

    struct AlbumQuery: StructuredOutput {
        var title: String
        var year: Int?
    }

    @Test("a tool with typed arguments: offered with the type's schema, its handler gets the decoded value")
    func typedToolArguments() async throws {
        let model = ToolCallingModel(arguments: #"{"title": "Abbey Road", "year": 1969}"#)
        let received = Mutex<[String]>([])
        let tool = ConversationTool(name: "lookup_album", description: "Look up an album.", arguments: AlbumQuery.self) { query in
            received.withLock { $0.append("\(query.title) \(query.year ?? 0)") }
            return #"{"artist": "The Beatles"}"#
        }
        let turn = try await Self.router([model]).conversation(tools: [tool]).send("Who made Abbey Road?")
        #expect(received.withLock { $0 } == ["Abbey Road 1969"])
        #expect(turn.response.text == #"tool said {"artist": "The Beatles"}"#)
        let offered = try #require(model.offered.withLock { $0.first })
        #expect(try offered.parameters == AlbumQuery.schema)
    }

    @Test("typed arguments that do not fit the type never reach the handler: the model reads the error")
    func badTypedArgumentsAreAnsweredToTheModel() async throws {
        let model = ToolCallingModel(arguments: #"{"title": 7}"#)
        let calls = Mutex(0)
        let tool = ConversationTool(name: "lookup_album", description: "Look up an album.", arguments: AlbumQuery.self) { _ in
            calls.withLock { $0 += 1 }
            return "{}"
        }
        let turn = try await Self.router([model]).conversation(tools: [tool]).send("Who made it?")
        #expect(calls.withLock { $0 } == 0)
        let execution = try #require(turn.steps.first?.toolExecutions.first)
        #expect(!execution.succeeded && execution.result.hasPrefix("error: "))
    }

    @Test("a plain session keeps its transcript: the second turn sees the first, as LanguageModelSession does")
    func plainSessionKeepsATranscript() async throws {
        let model = ScriptedLanguageModel(id: "device", script: [.reply("Hello, Ada."), .reply("Your name is Ada.")])
        let session = try Self.router([model]).conversation()
        _ = try await session.send("My name is Ada.")
        let second = try await session.send("What is my name?")
        #expect(second.response.text == "Your name is Ada.")
        #expect(await session.transcript.map(\.content) == ["My name is Ada.", "Hello, Ada.", "What is my name?", "Your name is Ada."])
        let asked = try #require(model.requests.last)
        #expect(asked.messages.map(\.content) == ["My name is Ada.", "Hello, Ada.", "What is my name?"])
    }
}

/// A model that calls the first tool offered with `arguments`, then answers with the tool's result: the shape of
/// any provider's tool round, without a wire format (those are tested per adapter).
final class ToolCallingModel: LanguageModel {
    let id = "tool-caller"
    let displayName = "tool caller"
    let tier = ModelTier.onDevice
    let capabilities = ModelCapabilities(streaming: false, contextWindow: 4096)
    let arguments: String
    let offered = Mutex<[ToolDefinition]>([])

    init(arguments: String) { self.arguments = arguments }

    func availability() async -> ModelAvailability { .available }

    func generate(_ request: GenerationRequest) async throws(GenerationError) -> GenerationResponse {
        offered.withLock { $0 = request.tools }
        let timing = GenerationTiming(timeToFirstToken: nil, total: .milliseconds(1))
        let usage = TokenUsage(promptTokens: 10, completionTokens: 5)
        if let result = request.messages.last, result.role == .tool {
            return GenerationResponse(text: "tool said \(result.content)", servedBy: identity, usage: usage, timing: timing, finishReason: .stop)
        }
        guard let tool = request.tools.first else { throw .invalidRequest(model: id, detail: "no tool offered") }
        let call = ToolCall(id: "call-1", name: tool.name, argumentsText: arguments)
        return GenerationResponse(text: "", servedBy: identity, usage: usage, timing: timing, finishReason: .toolCall, toolCalls: [call])
    }

    func stream(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error> { streamByGenerating(request) }
}
