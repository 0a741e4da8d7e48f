// Shared by the on-device (`FoundationModelsModel`) and Private Cloud Compute (`PrivateCloudComputeModel`)
// adapters: both drive a `LanguageModelSession`, only the model behind it differs. Apple platforms only; not
// compiled on the Linux CI.
#if canImport(FoundationModels)
import FoundationModels
import HybridCore
import Foundation

/// Runs one `GenerationRequest` on a `LanguageModelSession` and builds the `GenerationResponse`.
///
/// - Earlier turns of `messages` are folded into the prompt as labelled lines (the session keeps its own
///   transcript otherwise).
/// - `GenerationOptions` map to Foundation Models' options (`maximumResponseTokens`, `temperature`, `.greedy`, and
///   `.topP(p)` as `.random(probabilityThreshold:seed:)`).
/// - Structured output builds a `DynamicGenerationSchema` from the JSON schema (objects, arrays, strings, string
///   enums, integers, numbers, booleans) and returns `GeneratedContent.jsonString`; it arrives as one delta.
/// - The framework reports no token counts, so usage is always estimated (flagged).
/// - With tools, the session's first tool call stops the response (`FoundationModelsTools`): the calls come back
///   in `toolCalls` with finish reason `.toolCall`, for the caller to run.
@available(macOS 26.0, iOS 26.0, visionOS 26.0, *)
struct FoundationModelsSessionRunner {
    let modelID: ModelIdentity
    let providerModel: String

    func run(
        _ session: LanguageModelSession, _ request: GenerationRequest, recorder: FoundationModelsTools.Recorder,
        streaming: Bool, onDelta: (String) -> Void
    ) async throws(GenerationError) -> GenerationResponse {
        let prompt = request.tools.isEmpty ? Self.prompt(request) : FoundationModelsTools.prompt(request)
        let options = Self.options(request.options)
        let start = ContinuousClock.now
        var output = Output()
        do {
            if let schema = request.responseSchema {
                try await respondStructured(session, prompt, schema, request.responseSchemaName, options, &output)
                output.timeToFirstToken = streaming ? ContinuousClock.now - start : nil
                if streaming { onDelta(output.text) }
            } else if streaming {
                // Snapshots carry the whole text so far; deltas are what each one adds.
                for try await snapshot in session.streamResponse(to: prompt, options: options) {
                    let current = snapshot.content
                    let delta = current.hasPrefix(output.text) ? String(current.dropFirst(output.text.count)) : current
                    output.text = current
                    if !delta.isEmpty {
                        if output.timeToFirstToken == nil { output.timeToFirstToken = ContinuousClock.now - start }
                        onDelta(delta)
                    }
                }
            } else {
                output.text = try await session.respond(to: prompt, options: options).content
            }
        } catch let error as LanguageModelSession.ToolCallError where error.underlyingError is FoundationModelsTools.Intercepted {
            // The model called a tool: the recorder holds the call; the caller runs it.
        } catch {
            throw FoundationModelsErrors.map(error, model: modelID.id)
        }
        let toolCalls = recorder.recorded
        if Task.isCancelled { throw .cancelled(model: modelID.id) }
        return GenerationResponse(
            text: output.text,
            structured: output.structured,
            servedBy: modelID,
            providerModel: providerModel,
            usage: .estimated(prompt: (request.instructions ?? "") + "\n" + prompt, completion: output.text),
            timing: GenerationTiming(timeToFirstToken: output.timeToFirstToken, total: ContinuousClock.now - start),
            finishReason: toolCalls.isEmpty ? .stop : .toolCall,
            toolCalls: toolCalls
        )
    }

    /// What a run produced so far.
    private struct Output {
        var text = ""
        var structured: JSONValue?
        var timeToFirstToken: Duration?
    }

    private func respondStructured(
        _ session: LanguageModelSession, _ prompt: String, _ schema: JSONValue, _ name: String,
        _ options: FoundationModels.GenerationOptions, _ output: inout Output
    ) async throws {
        let generationSchema = try GenerationSchema(root: Self.dynamicSchema(schema, name: name), dependencies: [])
        let response = try await session.respond(to: prompt, schema: generationSchema, options: options)
        output.text = response.content.jsonString
        output.structured = try? JSONValue(parsing: output.text)
        guard output.structured != nil else {
            throw GenerationError.decodingFailure(model: modelID.id, detail: "the generated content is not valid JSON")
        }
    }

    /// Runs `produce` in a task and turns its result into the `LanguageModel.stream` event sequence; cancelling
    /// the consumer cancels the task.
    static func stream(
        _ produce: @escaping @Sendable (AsyncThrowingStream<GenerationEvent, any Error>.Continuation) async throws(GenerationError) -> GenerationResponse
    ) -> AsyncThrowingStream<GenerationEvent, any Error> {
        let (events, continuation) = AsyncThrowingStream<GenerationEvent, any Error>.makeStream()
        let task = Task {
            do throws(GenerationError) {
                let response = try await produce(continuation)
                // The session reports a call only once it is whole: one fragment per call.
                for (index, call) in response.toolCalls.enumerated() {
                    continuation.yield(.toolCallDelta(ToolCallDelta(index: index, call: call)))
                }
                continuation.yield(.completed(response))
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return events
    }

    /// The last message is the prompt; earlier turns are prefixed as labelled lines.
    static func prompt(_ request: GenerationRequest) -> String {
        guard let last = request.messages.last else { return "" }
        let history = request.messages.dropLast().map { "\($0.role == .user ? "User" : "Assistant"): \($0.content)" }
        return history.isEmpty ? last.content : (history + [last.content]).joined(separator: "\n")
    }

    static func options(_ options: HybridCore.GenerationOptions) -> FoundationModels.GenerationOptions {
        var sampling: FoundationModels.GenerationOptions.SamplingMode?
        switch options.sampling {
        case .greedy: sampling = .greedy
        case .topP(let p): sampling = .random(probabilityThreshold: p, seed: options.seed.map { UInt64(truncatingIfNeeded: $0) })
        case nil: sampling = nil
        }
        return FoundationModels.GenerationOptions(
            sampling: sampling, temperature: options.temperature, maximumResponseTokens: options.maxOutputTokens)
    }

    /// A `DynamicGenerationSchema` for the JSON Schema subset the guided generator understands.
    static func dynamicSchema(_ schema: JSONValue, name: String) -> DynamicGenerationSchema {
        switch schema["type"]?.stringValue {
        case "object":
            let required = Set(schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            let properties = (schema["properties"]?.objectValue ?? [:]).sorted { $0.key < $1.key }.map { key, value in
                DynamicGenerationSchema.Property(
                    name: key, description: value["description"]?.stringValue,
                    schema: dynamicSchema(value, name: "\(name)_\(key)"), isOptional: !required.contains(key))
            }
            return DynamicGenerationSchema(name: name, description: schema["description"]?.stringValue, properties: properties)
        case "array":
            return DynamicGenerationSchema(
                arrayOf: dynamicSchema(schema["items"] ?? ["type": "string"], name: "\(name)_item"),
                minimumElements: schema["minItems"]?.intValue, maximumElements: schema["maxItems"]?.intValue)
        case "integer":
            return DynamicGenerationSchema(type: Int.self)
        case "number":
            return DynamicGenerationSchema(type: Double.self)
        case "boolean":
            return DynamicGenerationSchema(type: Bool.self)
        default:
            if let choices = schema["enum"]?.arrayValue?.compactMap(\.stringValue), !choices.isEmpty {
                return DynamicGenerationSchema(name: name, description: schema["description"]?.stringValue, anyOf: choices)
            }
            return DynamicGenerationSchema(type: String.self)
        }
    }
}
#endif
