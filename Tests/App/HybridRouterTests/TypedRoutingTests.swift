import Foundation
@testable import HybridCore
@testable import HybridProviders
@testable import HybridRouter
@testable import HybridTestSupport
@testable import HybridTransport
@testable import HybridValidation
import Testing

/// Models declared in Swift, answers decoded into Swift types, partial values while streaming, and credentials an
/// app can ship.
@Suite("Typed, declared routing")
struct TypedRoutingTests {
    struct Verdict: StructuredOutput {
        enum Label: String, Codable, CaseIterable, Sendable { case positive, negative, neutral }
        var label: Label
        var confidence: Double
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            label = try container.decode(Label.self, forKey: .label)
            confidence = try container.decode(Double.self, forKey: .confidence)
            // A rule the schema does not state: a schema-valid answer can still fail to decode.
            guard (0...1).contains(confidence) else {
                throw DecodingError.dataCorruptedError(forKey: .confidence, in: container, debugDescription: "not in 0...1")
            }
        }
        enum CodingKeys: String, CodingKey { case label, confidence }
        static let guides: [String: JSONValue] = ["confidence": ["description": "Between 0 and 1"]]
    }

    @Test func anAnswerThatDoesNotDecodeFallsBackAndTheTypeReachesTheModel() async throws {
        let local = ScriptedLanguageModel(id: "local", script: [.reply(#"{"label": "positive", "confidence": 7}"#)])
        let cloud = ScriptedLanguageModel(
            id: "cloud", tier: .thirdParty, script: [.reply(#"{"label": "negative", "confidence": 0.9}"#)])
        let router = try Router(models: [.model(local), .model(cloud)])
        let answer = try await router.respond(to: "Rate: meh", generating: Verdict.self)
        #expect(answer.content.label == .negative && answer.routed.servedBy.id == "cloud")
        let first = try #require(answer.routed.attempts.first?.outcome)
        #expect(first.kind == .failedChecks && first.checkFailures.map(\.name) == ["decodes"])
        // The schema derived from the type went to the model, descriptions included.
        let sent = try #require(local.requests.first?.responseSchema)
        #expect(sent["properties"]?["confidence"]?["description"] == "Between 0 and 1")
        #expect(sent["properties"]?["label"]?["enum"] == ["positive", "negative", "neutral"])
    }

    @Test func noDecodableAnswerIsAnErrorThatSaysSo() async throws {
        let only = ScriptedLanguageModel(id: "local", script: [.reply(#"{"label": "positive", "confidence": 3}"#)])
        let router = try Router(models: [.model(only)])
        do {
            _ = try await router.respond(to: "x", generating: Verdict.self)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .outputNotDecodable || error.code == .outputChecksFailed, "\(error)")
        }
    }

    struct Misguided: StructuredOutput {
        var tags: [String]
        static let guides: [String: JSONValue] = ["tag": ["maxItems": 3]]
    }

    @Test("a type without a valid schema fails the request, the stream and a typed tool's turn, naming the type and the guide; no model is asked")
    func aTypeWithoutASchemaIsAnErrorNotACrash() async throws {
        let model = ScriptedLanguageModel(id: "local", script: [.reply(#"{"tags": []}"#)])
        let router = try Router(models: [.model(model)])
        do {
            _ = try await router.respond(to: "x", generating: Misguided.self)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidOutputType)
            #expect(error.outputTypeError?.typeName == "Misguided" && error.outputTypeError?.path == "tag")
            #expect(error.description.contains(#"Misguided.guides names "tag" (did you mean "tags"?)"#), "\(error)")
        }
        var streamed: RouterError?
        do {
            for try await _ in router.streamResponse(to: "x", generating: Misguided.self) {}
        } catch {
            streamed = error
        }
        #expect(streamed?.code == .invalidOutputType && streamed?.outputTypeError?.path == "tag")
        let tool = ConversationTool(name: "tag", description: "Tags a text.", arguments: Misguided.self) { _ in "ok" }
        do {
            _ = try await router.conversation(tools: [tool]).send("x")
            Issue.record("expected an error")
        } catch {
            #expect(error.routerError?.outputTypeError?.typeName == "Misguided", "\(error)")
        }
        #expect(model.requests.isEmpty)
    }

    @Test func textRespondUsesTheDeclaredOrder() async throws {
        let down = ScriptedLanguageModel(id: "local", availability: .unavailable(.notRunning("stopped")))
        let cloud = ScriptedLanguageModel(id: "cloud", tier: .thirdParty, script: [.reply("Hello.")])
        let router = try Router(models: [.model(down), .model(cloud)], instructions: "Be brief.")
        let answer = try await router.respond(to: "Hi")
        #expect(answer.response.text == "Hello." && answer.servedBy.id == "cloud")
        #expect(cloud.requests.first?.instructions == "Be brief.")
        // The declaration is an ordinary config document.
        let document = ModelChoice.document([.model(down), .model(cloud)])
        #expect(document.features["respond"]?.priority == ["local", "cloud"])
    }

    @Test func streamingYieldsPartialValuesThenTheFinalOne() async throws {
        let model = ScriptedLanguageModel(id: "local", script: [.reply(#"{"label": "neutral", "confidence": 0.5 }"#)])
        let router = try Router(models: [.model(model)])
        var snapshots: [PartialSnapshot<Verdict>] = []
        for try await snapshot in router.streamResponse(to: "x", generating: Verdict.self) { snapshots.append(snapshot) }
        #expect(snapshots.contains { $0.json == ["label": "neutral"] && $0.content == nil })
        let last = try #require(snapshots.last)
        #expect(last.completed != nil && last.content?.label == .neutral && last.completed?.servedBy.id == "local")
    }

    @Test func credentialsTravelAsEachAPIExpectsAndNeverAsConfig() async throws {
        let body = Data(#"{"id":"x","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}"#.utf8)
        let transport = ScriptedHTTPTransport([ScriptedHTTPResponse(body: body), ScriptedHTTPResponse(body: body)])
        let factory = ModelFactory(transport: transport, environment: { _ in nil })
        let key = ModelChoice.openAI(model: "gpt-4o-mini", apiKey: .key(provider: { "sk-from-keychain" }))
        let proxy = ModelChoice.openAI(
            model: "gpt-4o-mini", apiKey: .proxy(headers: { ["X-App-Token": "short-lived"] }),
            baseURL: "https://proxy.example.com/v1", id: "proxy")
        for choice in [key, proxy] {
            let model = factory.withCredentials(try #require(choice.credentials), for: choice.id)
                .model(id: choice.id, config: choice.config)
            _ = try await model.generate(GenerationRequest(prompt: "hi"))
        }
        let requests = await transport.requests
        #expect(requests[0].headers.first(where: { $0.name == "Authorization" })?.value == "Bearer sk-from-keychain")
        #expect(requests[1].url.hasPrefix("https://proxy.example.com/v1"))
        #expect(requests[1].headers.first(where: { $0.name == "X-App-Token" })?.value == "short-lived")
        #expect(!requests[1].headers.contains { $0.name == "Authorization" })
        let json = String(decoding: try JSONEncoder().encode(ModelChoice.document([key, proxy])), as: UTF8.self)
        #expect(!json.contains("sk-from-keychain") && !json.contains("short-lived"))
    }

    @Test func aFetchedConfigOverridesTheDeclarationWithoutCodeChanges() async throws {
        let local = ScriptedLanguageModel(id: "local", whenExhausted: .reply("from local"))
        let cloud = ScriptedLanguageModel(id: "cloud", tier: .thirdParty, whenExhausted: .reply("from cloud"))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("declared-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The published config: the same declaration, cloud first, version 2.
        var published = ModelChoice.document([.model(local), .model(cloud)])
        published.version = 2
        published.features["respond"]?.priority = ["cloud", "local"]
        let file = directory.appendingPathComponent("hybrid.json")
        try published.encodedJSON().write(to: file)

        let router = try Router(models: [.model(local), .model(cloud)], configURL: file.absoluteString)
        let resolution = try #require(await router.refreshConfig())
        #expect(resolution.config.version == 2, "\(String(describing: resolution.reasonNewOneRejected))")
        #expect(try await router.respond(to: "hi").servedBy.id == "cloud")
    }
}
