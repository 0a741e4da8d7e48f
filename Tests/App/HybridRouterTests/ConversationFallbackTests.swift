import Foundation
@testable import HybridConfig
@testable import HybridCore
@testable import HybridProviders
@testable import HybridRouter
@testable import HybridTestSupport
@testable import HybridTransport
@testable import HybridValidation
import Synchronization
import Testing

/// Conversations through the router: the tool loop over real adapters and loopback servers speaking each
/// provider's documented wire format, with fallback mid-turn, the step limit, failing handlers and the deadline.
///
/// Wire formats: OpenAI chat completions with `tool_calls` (https://platform.openai.com/docs/guides/function-calling,
/// https://platform.openai.com/docs/api-reference/chat/object); Anthropic Messages `tool_use` / `tool_result`
/// blocks (https://docs.anthropic.com/en/docs/build-with-claude/tool-use).
@Suite struct ConversationFallbackTests {
    struct CatalogOffline: Error {}

    static let album = ToolDefinition(
        name: "lookup_album", description: "Look up an album by title.",
        parameters: ["type": "object", "properties": ["title": ["type": "string"]], "required": ["title"]])
    static let reminder = ToolDefinition(
        name: "create_reminder", description: "Create a reminder.",
        parameters: ["type": "object", "properties": ["text": ["type": "string"], "due": ["type": "string"]], "required": ["text", "due"]])

    /// An OpenAI chat completion whose message calls `name` with `arguments` (a JSON string on the wire).
    static func openAIToolCall(id: String, name: String, arguments: String) -> ScriptedResponse {
        let call: JSONValue = ["id": .string(id), "type": "function", "function": ["name": .string(name), "arguments": .string(arguments)]]
        let body: JSONValue = [
            "id": "chatcmpl-1", "object": "chat.completion", "created": 1_700_000_000, "model": "gpt-4o-mini",
            "choices": [["index": 0, "message": ["role": "assistant", "content": nil, "tool_calls": [call]], "finish_reason": "tool_calls"]],
            "usage": ["prompt_tokens": 60, "completion_tokens": 12, "total_tokens": 72],
        ]
        return .json(body.canonicalJSON)
    }

    static let openAIServerError = ScriptedResponse.json(
        status: 500, #"{"error": {"message": "The server had an error while processing your request.", "type": "server_error", "param": null, "code": null}}"#)

    /// An Anthropic message; `toolUse` adds a `tool_use` block after the text and stops with `tool_use`.
    static func anthropicMessage(text: String, toolUse: (id: String, name: String, input: JSONValue)? = nil) -> ScriptedResponse {
        var content: [JSONValue] = [["type": "text", "text": .string(text)]]
        if let toolUse {
            content.append(["type": "tool_use", "id": .string(toolUse.id), "name": .string(toolUse.name), "input": toolUse.input])
        }
        let body: JSONValue = [
            "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-3-5-haiku-latest", "content": .array(content),
            "stop_reason": toolUse == nil ? "end_turn" : "tool_use", "stop_sequence": nil,
            "usage": ["input_tokens": 120, "output_tokens": 30],
        ]
        return .json(body.canonicalJSON)
    }

    static func document(openAI: String, anthropic: String?, deadlineMs: Int = 60_000) throws -> HybridConfigDocument {
        var models: [String: ModelConfig] = [
            "cloud-openai": ModelConfig(
                kind: .openAICompatible, baseURL: openAI + "/v1", model: "gpt-4o-mini", tier: .thirdParty, apiKeyEnv: "FAKE_KEY",
                pricing: .free, contextWindow: 8192, capabilities: .init(structuredOutput: true, streaming: false))
        ]
        if let anthropic {
            models["cloud-anthropic"] = ModelConfig(
                kind: .anthropic, baseURL: anthropic + "/v1", model: "claude-3-5-haiku-latest", tier: .thirdParty,
                apiKeyEnv: "FAKE_KEY", pricing: .free, contextWindow: 8192, capabilities: .init(structuredOutput: true, streaming: false))
        }
        let feature = FeatureConfig(
            instructions: "You are the assistant of a music app.", variants: ["default": PromptVariant(template: "{{input}}")],
            defaultVariant: "default", options: FeatureGenerationOptions(temperature: 0, maxOutputTokens: 100),
            priority: Array(models.keys.sorted().reversed()), deadlineMs: deadlineMs, privacy: .open)
        return HybridConfigDocument(version: 1, models: models, features: ["assistant": feature])
    }

    static func router(_ document: HybridConfigDocument) throws -> Router {
        let factory = ModelFactory(transport: URLSessionTransport.shared, environment: { $0 == "FAKE_KEY" ? "test-key" : nil })
        let models = Dictionary(uniqueKeysWithValues: document.models.map { ($0.key, factory.model(id: $0.key, config: $0.value)) })
        return try Router(config: .fixed(document), models: .models(models), installId: "conversation", onIncident: { _ in })
    }

    static func json(_ request: RecordedRequest) throws -> JSONValue { try JSONValue(parsing: request.bodyText) }

    @Test func aTwoToolTurnFallsBackToAnotherProviderWhichGetsTheWholeTranscript() async throws {
        let openAI = try LoopbackHTTPServer { request in
            // The first step has no tool result yet; every later step fails.
            request.bodyText.contains(#""role":"tool""#)
                ? Self.openAIServerError
                : Self.openAIToolCall(id: "call_album", name: "lookup_album", arguments: #"{"title":"Abbey Road"}"#)
        }
        defer { openAI.stop() }
        let anthropic = try LoopbackHTTPServer { request in
            request.bodyText.contains("toolu_reminder")
                ? Self.anthropicMessage(text: "Abbey Road is by the Beatles; I set a reminder for Saturday.")
                : Self.anthropicMessage(
                    text: "Creating the reminder.",
                    toolUse: ("toolu_reminder", "create_reminder", ["text": "Buy Abbey Road", "due": "Saturday"]))
        }
        defer { anthropic.stop() }
        let router = try Self.router(try Self.document(openAI: openAI.baseURL, anthropic: anthropic.baseURL))
        let reminders = Mutex<[JSONValue]>([])
        let conversation = router.conversation(feature: "assistant", tools: [
            ConversationTool(Self.album) { _ in #"{"artist": "The Beatles", "year": 1969}"# },
            ConversationTool(Self.reminder) { call in
                reminders.withLock { $0.append(call.arguments ?? .null) }
                return #"{"ok": true}"#
            },
        ])

        let turn = try await conversation.send("Who made Abbey Road? Remind me to buy it on Saturday.")

        #expect(turn.response.text == "Abbey Road is by the Beatles; I set a reminder for Saturday.")
        #expect(turn.response.servedBy.id == "cloud-anthropic")
        #expect(turn.steps.count == 3)
        #expect(turn.steps.map(\.routed.servedBy.id) == ["cloud-openai", "cloud-anthropic", "cloud-anthropic"])
        // Steps 2 and 3 walked the order again: OpenAI failed with a server error, Anthropic served.
        for step in turn.steps.dropFirst() {
            #expect(step.routed.attempts.count == 2)
            if let error = step.routed.attempts[0].outcome.error { #expect(error.kind == .serverError) } else {
                Issue.record("expected a failed first attempt, got \(step.routed.attempts[0])")
            }
        }
        #expect(turn.steps.flatMap(\.toolExecutions).map(\.call.name) == ["lookup_album", "create_reminder"])
        #expect(turn.steps.flatMap(\.toolExecutions).allSatisfy { $0.succeeded })
        #expect(reminders.withLock { $0 } == [["text": "Buy Abbey Road", "due": "Saturday"]])

        let transcript = await conversation.transcript
        #expect(transcript.map(\.role) == [.user, .assistant, .tool, .assistant, .tool, .assistant])
        #expect(transcript[2].toolCallID == "call_album" && transcript[2].content.contains("The Beatles"))
        #expect(transcript[4].toolCallID == "toolu_reminder" && transcript[4].content == #"{"ok": true}"#)

        // OpenAI's second request carried the first step in OpenAI's format before it failed.
        let openAIRequests = openAI.requests
        #expect(openAIRequests.count == 3)
        let retried = try Self.json(openAIRequests[1])["messages"]?.arrayValue ?? []
        #expect(retried.contains { $0["role"] == "tool" && $0["tool_call_id"] == "call_album" })
        #expect(try Self.json(openAIRequests[0])["tools"]?.arrayValue?.count == 2)

        // Anthropic's first request holds the whole transcript in its own format: a tool_use block in the assistant
        // turn and a tool_result block in the following user turn.
        let first = try Self.json(try #require(anthropic.requests.first))
        let messages = try #require(first["messages"]?.arrayValue)
        #expect(messages.count == 3)
        let toolUse = try #require(messages[1]["content"]?.arrayValue?.first { $0["type"] == "tool_use" })
        #expect(toolUse["id"] == "call_album" && toolUse["name"] == "lookup_album" && toolUse["input"] == ["title": "Abbey Road"])
        let toolResult = try #require(messages[2]["content"]?.arrayValue?.first { $0["type"] == "tool_result" })
        #expect(messages[2]["role"] == "user" && toolResult["tool_use_id"] == "call_album")
        #expect(first["tools"]?.arrayValue?.compactMap { $0["name"]?.stringValue }.sorted() == ["create_reminder", "lookup_album"])
    }

    @Test func aModelThatKeepsCallingToolsStopsAtTheStepLimitAndLeavesTheTranscript() async throws {
        let server = try LoopbackHTTPServer { _ in
            Self.openAIToolCall(id: "call_1", name: "lookup_album", arguments: #"{"title":"Abbey Road"}"#)
        }
        defer { server.stop() }
        let router = try Self.router(try Self.document(openAI: server.baseURL, anthropic: nil))
        let earlier: [ChatMessage] = [.user("Hi"), .assistant("Hello! How can I help?")]
        let conversation = router.conversation(
            feature: "assistant", tools: [ConversationTool(Self.album) { _ in throw CatalogOffline() }], transcript: earlier,
            stepLimit: 3)
        do {
            _ = try await conversation.send("Find Abbey Road")
            Issue.record("the turn finished although the model never stopped calling tools")
        } catch {
            #expect(error.isStepLimit)
            #expect(error.steps.count == 3)
            // The handler threw: the model was told, and the turn went on.
            #expect(error.steps[0].toolExecutions.first?.succeeded == false)
            #expect(error.steps[0].toolExecutions.first?.result.hasPrefix("error: ") == true)
        }
        #expect(server.requestCount == 3)
        #expect(try Self.json(server.requests[1]).canonicalJSON.contains("error: "))
        #expect(await conversation.transcript == earlier)
    }

    @Test func theTurnDeadlineCoversToolHandlers() async throws {
        let server = try LoopbackHTTPServer { _ in
            Self.openAIToolCall(id: "call_1", name: "lookup_album", arguments: #"{"title":"Abbey Road"}"#)
        }
        defer { server.stop() }
        let router = try Self.router(try Self.document(openAI: server.baseURL, anthropic: nil, deadlineMs: 60_000))
        let conversation = router.conversation(feature: "assistant", tools: [
            ConversationTool(Self.album) { _ in
                try await Task.sleep(for: .seconds(30))
                return "late"
            }
        ])
        let started = ContinuousClock.now
        do {
            _ = try await conversation.send("Find Abbey Road", deadline: .milliseconds(800))
            Issue.record("the turn finished past its deadline")
        } catch {
            #expect(error.isDeadline)
        }
        #expect(ContinuousClock.now - started < .seconds(10))
    }
}
