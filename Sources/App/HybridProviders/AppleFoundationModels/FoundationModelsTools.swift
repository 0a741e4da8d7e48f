// Tools for the Foundation Models adapters: Apple's `Tool` protocol and `Transcript`. Apple platforms only; not
// compiled on the Linux CI, type-checked there against scripts/apple-sdk-stubs, and unverified on a device.
#if canImport(FoundationModels)
import FoundationModels
import HybridCore
import Foundation
import Synchronization

/// Bridges HybridAI's tool calls to Foundation Models, where the session runs tools itself.
///
/// HybridAI returns calls to the caller (the router runs the app's handlers), so each offered tool is an
/// ``InterceptingTool`` that records the call and throws ``Intercepted``: the session stops and reports a
/// `ToolCallError`, which ``FoundationModelsSessionRunner`` turns into a response with `toolCalls`. Earlier turns
/// (calls and their results) go into the session's `Transcript`, so the model sees them as its own history.
@available(macOS 26.0, iOS 26.0, visionOS 26.0, *)
enum FoundationModelsTools {
    /// Thrown by an ``InterceptingTool`` to stop the response at the first call.
    struct Intercepted: Error {}

    /// The calls a session tried to make, in order.
    final class Recorder: Sendable {
        private let calls = Mutex<[ToolCall]>([])

        func record(name: String, argumentsJSON: String) {
            calls.withLock { $0.append(ToolCall(id: "call_\($0.count)", name: name, argumentsText: argumentsJSON)) }
        }

        var recorded: [ToolCall] { calls.withLock { $0 } }
    }

    /// One offered tool: records the call instead of running it.
    struct InterceptingTool: Tool {
        typealias Arguments = GeneratedContent
        typealias Output = String

        let name: String
        let description: String
        let parameters: GenerationSchema
        let recorder: Recorder

        func call(arguments: GeneratedContent) async throws -> String {
            recorder.record(name: name, argumentsJSON: arguments.jsonString)
            throw Intercepted()
        }
    }

    /// A session for `request`: plain (instructions only) without tools, else with intercepting tools and the
    /// earlier turns as a transcript.
    static func session(
        model: some FoundationModels.LanguageModel, modelID: String, request: GenerationRequest, recorder: Recorder
    ) throws(GenerationError) -> LanguageModelSession {
        guard !request.tools.isEmpty else { return LanguageModelSession(model: model, instructions: request.instructions) }
        let tools = try request.tools.map { definition throws(GenerationError) in
            InterceptingTool(
                name: definition.name, description: definition.description,
                parameters: try schema(definition, modelID: modelID), recorder: recorder)
        }
        return LanguageModelSession(model: model, tools: tools, transcript: transcript(request, tools: tools))
    }

    /// The prompt of a tool request: the last user turn when it is last; after tool results, a request to go on.
    static func prompt(_ request: GenerationRequest) -> String {
        if let last = request.messages.last, last.role == .user { return last.content }
        return "Continue, using the tool results above."
    }

    private static func schema(_ definition: ToolDefinition, modelID: String) throws(GenerationError) -> GenerationSchema {
        do {
            return try GenerationSchema(
                root: FoundationModelsSessionRunner.dynamicSchema(definition.parameters, name: definition.name), dependencies: [])
        } catch {
            throw .invalidRequest(model: modelID, detail: "tool \(definition.name): its parameters cannot be a GenerationSchema (\(error))")
        }
    }

    /// Instructions with the tool definitions, then every turn but a final user turn (that one is the prompt).
    private static func transcript(_ request: GenerationRequest, tools: [InterceptingTool]) -> Transcript {
        var entries: [Transcript.Entry] = [
            .instructions(Transcript.Instructions(
                segments: [text(request.instructions ?? "")],
                toolDefinitions: tools.map { Transcript.ToolDefinition(name: $0.name, description: $0.description, parameters: $0.parameters) }))
        ]
        let history = request.messages.last?.role == .user ? request.messages.dropLast() : request.messages[...]
        for message in history { entries.append(contentsOf: self.entries(for: message)) }
        return Transcript(entries: entries)
    }

    private static func entries(for message: ChatMessage) -> [Transcript.Entry] {
        switch message.role {
        case .tool:
            return [.toolOutput(Transcript.ToolOutput(
                id: message.toolCallID ?? "", toolName: message.toolName ?? "", segments: [text(message.content)]))]
        case .assistant:
            var out: [Transcript.Entry] = []
            if !message.content.isEmpty { out.append(.response(Transcript.Response(assetIDs: [], segments: [text(message.content)]))) }
            let calls = message.toolCalls.compactMap { call -> Transcript.ToolCall? in
                guard let arguments = try? GeneratedContent(json: call.argumentsText) else { return nil }
                return Transcript.ToolCall(id: call.id, toolName: call.name, arguments: arguments)
            }
            if !calls.isEmpty { out.append(.toolCalls(Transcript.ToolCalls(calls))) }
            return out
        default:
            return [.prompt(Transcript.Prompt(segments: [text(message.content)]))]
        }
    }

    private static func text(_ content: String) -> Transcript.Segment {
        .text(Transcript.TextSegment(content: content))
    }
}
#endif
