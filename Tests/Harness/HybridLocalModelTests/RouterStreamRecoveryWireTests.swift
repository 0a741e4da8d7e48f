import Foundation
import HybridConfig
import HybridCore
import HybridCurl
import HybridLocalModel
import HybridLocalModelTestSupport
import HybridProviders
import HybridRouter
import HybridTestSupport
import Testing

/// Stream recovery over real connections: OpenAI-format loopback servers that break a stream mid-answer (the
/// connection dropped after N chunks, an error event), and the real SmolLM2 server killed with SIGKILL while it
/// streams. The next model is a loopback cloud that records what it was sent.
@Suite(.serialized) struct RouterStreamRecoveryWireTests {
    static let first = "first-cloud"
    static let second = "second-cloud"

    /// One `chat.completion.chunk` event carrying `text`, as OpenAI streams it.
    static func chunk(_ text: String) -> String {
        "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\(FakeChatCompletionsServer.quote(text))},\"finish_reason\":null}]}\n\n"
    }

    /// A whole streamed answer: `pieces`, the finish chunk, usage and `[DONE]`.
    static func answer(_ pieces: [String]) -> ScriptedResponse {
        let finish = "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
        let usage = "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[],\"usage\":{\"prompt_tokens\":40,\"completion_tokens\":8,\"total_tokens\":48}}\n\n"
        return .sse(events: pieces.map(chunk) + [finish, usage, "data: [DONE]\n\n"])
    }

    /// The cloud that takes over: it answers the continuation, repeating the text it was given first when `echo`
    /// (as llama-server does with an assistant prefill), else with only the rest (as Anthropic does).
    static func takingOver(echo: Bool) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request in
            let given = Self.assistantPrefix(request) ?? ""
            return Self.answer(echo ? [given + " and the", " bridge closed."] : [" and the", " bridge closed."])
        }
    }

    /// The content of the request's last message when it is the assistant's (the text to continue).
    static func assistantPrefix(_ request: RecordedRequest) -> String? {
        guard case .object(let body)? = try? JSONValue(parsing: request.bodyText),
              case .array(let messages)? = body["messages"], case .object(let last)? = messages.last,
              last["role"] == .string("assistant"), case .string(let content)? = last["content"]
        else { return nil }
        return content
    }

    static func router(firstURL: String, secondURL: String, recovery: RoutingConfig.StreamRecovery? = nil) throws -> Router {
        var document = try LocalAndCloudConfig.document(
            feature: "summarize", cloudBaseURL: secondURL, maxOutputTokens: 64,
            adjust: { feature in feature.routing = RoutingConfig(streamRecovery: recovery) })
        document.models = [Self.first: LocalAndCloudConfig.cloud(baseURL: firstURL), Self.second: LocalAndCloudConfig.cloud(baseURL: secondURL)]
        document.features["summarize"]?.priority = [Self.first, Self.second]
        let factory = LocalAndCloudConfig.cloudFactory()
        return try Router(config: .fixed(document), models: .modelFactory(factory), installId: "recovery", onIncident: { _ in })
    }

    static func events(_ router: Router) async throws -> [RoutedStreamEvent] {
        var events: [RoutedStreamEvent] = []
        for try await event in router.stream(feature: "summarize", input: ["input": "Rain fell all night on the town."]) {
            events.append(event)
        }
        return events
    }

    @Test("a connection dropped after N chunks, or an error event mid-stream: the next cloud continues the text shown", arguments: [
        (breakAfter: 1, errorEvent: false, echo: true), (breakAfter: 3, errorEvent: false, echo: false),
        (breakAfter: 2, errorEvent: true, echo: true),
    ])
    func brokenStreamsContinue(breakAfter: Int, errorEvent: Bool, echo: Bool) async throws {
        let pieces = ["The river", " rose", " overnight"].prefix(breakAfter)
        let shown = pieces.joined()
        let breaking = try LoopbackHTTPServer { _ in
            var parts = pieces.map { ScriptedResponse.Part.text(Self.chunk($0)) }
            if errorEvent {
                parts.append(.text("data: {\"error\":{\"message\":\"The server is overloaded\",\"type\":\"server_error\",\"code\":null}}\n\n"))
            }
            parts.append(.closeConnection)
            return ScriptedResponse(headers: [("Content-Type", "text/event-stream")], parts: parts, framing: .chunked)
        }
        let next = try Self.takingOver(echo: echo)
        defer { breaking.stop(); next.stop() }
        let events = try await Self.events(try Self.router(firstURL: breaking.baseURL + "/v1", secondURL: next.baseURL + "/v1"))

        #expect(!events.contains(.reset))
        #expect(events.screen == shown + " and the bridge closed.")
        let routed = try #require(events.completed)
        #expect(routed.response.text == shown + " and the bridge closed.")
        #expect(routed.attempts.map(\.outcome.kind) == [.interrupted, .served], "\(routed.attempts)")
        #expect((routed.attempts[0].usage?.completionTokens ?? 0) > 0)
        #expect(next.requests.map(Self.assistantPrefix) == [shown])
    }

    @Test("restart over the wire: a reset, then the next cloud's whole answer to the original request")
    func brokenStreamRestarts() async throws {
        let breaking = try LoopbackHTTPServer { _ in
            ScriptedResponse(
                headers: [("Content-Type", "text/event-stream")], parts: [.text(Self.chunk("The river")), .closeConnection], framing: .chunked)
        }
        let next = try LoopbackHTTPServer { _ in Self.answer(["Floods closed", " the bridge."]) }
        defer { breaking.stop(); next.stop() }
        let events = try await Self.events(try Self.router(firstURL: breaking.baseURL + "/v1", secondURL: next.baseURL + "/v1", recovery: .restart))
        #expect(events.contains(.reset))
        #expect(events.screen == "Floods closed the bridge.")
        #expect(next.requests.map(Self.assistantPrefix) == [nil])
    }

    @Test("the real SmolLM2 server killed mid-answer: the cloud continues from the text SmolLM2 had shown")
    func killedLocalModelIsContinued() async throws {
        guard let installation = LocalModelRequirement.installed() else { return }
        let cloud = try Self.takingOver(echo: false)
        defer { cloud.stop() }
        let document = try LocalAndCloudConfig.document(feature: "summarize", cloudBaseURL: cloud.baseURL + "/v1", maxOutputTokens: 200)
        let factory = LocalAndCloudConfig.cloudFactory().withLocalLlama(.success(installation))
        let local = try #require(factory.model(id: LocalAndCloudConfig.localModel, config: document.models[LocalAndCloudConfig.localModel]!) as? LocalLlamaModel)
        let cloudModel = factory.model(id: LocalAndCloudConfig.cloudModel, config: document.models[LocalAndCloudConfig.cloudModel]!)
        try await local.prepare()
        let process = try #require(local.process)
        defer { Task { await process.stop() } }
        let router = try Router(
            config: .fixed(document), models: .models([LocalAndCloudConfig.localModel: local, LocalAndCloudConfig.cloudModel: cloudModel]),
            installId: "recovery", onIncident: { _ in })

        var events: [RoutedStreamEvent] = []
        var killed = false
        let input = "Write a long story about a river town, a flood and the people who rebuilt the bridge."
        for try await event in router.stream(feature: "summarize", input: ["input": input]) {
            events.append(event)
            if case .delta = event, !killed, events.screen.count >= 20 {
                let pid = try #require(await process.processIdentifier)
                kill(pid, SIGKILL)
                killed = true
            }
        }
        let routed = try #require(events.completed)
        let interrupted = try #require(routed.attempts.first)
        #expect(interrupted.modelID == LocalAndCloudConfig.localModel && interrupted.outcome.kind == .interrupted, "\(routed.attempts)")
        #expect(routed.servedBy.id == LocalAndCloudConfig.cloudModel)
        let shown = try #require(cloud.requests.first.flatMap(Self.assistantPrefix))
        #expect(shown.count >= 20, "SmolLM2's text before the kill, as the cloud received it: \(shown)")
        #expect(routed.response.text == shown + " and the bridge closed.")
        #expect(events.screen == routed.response.text)
        #expect(!events.contains(.reset))
        // What docs/app-integration.md shows: the events as the app received them.
        for event in events {
            switch event {
            case .delta(let piece): print("stream recovery e2e: .delta(\(FakeChatCompletionsServer.quote(piece)))")
            case .attempt(let attempt): print("stream recovery e2e: .attempt(\(attempt))")
            case .reset: print("stream recovery e2e: .reset")
            case .completed(let routed): print("stream recovery e2e: .completed(\(FakeChatCompletionsServer.quote(routed.response.text)))")
            }
        }
    }
}
