import Foundation
import HybridCore

/// Reads a Messages SSE stream: `message_start`, then per content block `content_block_start`,
/// `content_block_delta`s and `content_block_stop`, then `message_delta` and `message_stop`, with `ping`s anywhere.
///
/// With structured output only the forced tool's `input_json_delta`s are the text; without it `text_delta`s are the
/// text and each `tool_use` block is a tool call whose `input_json_delta`s are its argument fragments.
struct AnthropicStreamDecoder: WireStreamDecoder {
    private var parser = ServerSentEventParser()
    private let structured: Bool
    private var usage = AnthropicUsage()
    private var blockTypes: [Int: String] = [:]
    /// Position among the response's tool calls of each `tool_use` block, by block index.
    private var toolCallPositions: [Int: Int] = [:]
    /// `tool_use` blocks that received argument text; one that got none (a tool without input) gets `{}`.
    private var toolBlocksWithInput: Set<Int> = []

    init(structured: Bool) {
        self.structured = structured
    }

    mutating func feed(_ chunk: Data, into result: inout WireResult, context: WireContext) throws(GenerationError) -> [String] {
        var deltas: [String] = []
        for event in parser.feed(chunk) {
            try handle(event, into: &result, deltas: &deltas, context: context)
        }
        return deltas
    }

    mutating func finish(into result: inout WireResult, context: WireContext) throws(GenerationError) -> [String] {
        guard result.complete else {
            throw .serverError(
                model: context.modelID, status: nil,
                detail: "the stream ended before `message_stop`; the response is incomplete"
            )
        }
        return []
    }

    private mutating func handle(
        _ event: ServerSentEvent, into result: inout WireResult, deltas: inout [String], context: WireContext
    ) throws(GenerationError) {
        let data = Data(event.data.utf8)
        if event.type == "error" {
            throw AnthropicErrorMapper.map(streamError: AnthropicErrorBody(data: data) ?? AnthropicErrorBody(message: event.data), context: context)
        }
        if event.type == "ping" { return }
        let decoded: AnthropicStreamEvent
        do {
            decoded = try AnthropicStreamEvent.readJSON(bytes: data)
        } catch {
            throw context.notDecoded("a stream event is not one", at: error, root: "event", text: event.data)
        }
        switch decoded.type {
        case "message_start":
            if let model = decoded.message?.model, !model.isEmpty { result.providerModel = model }
            if let start = decoded.message?.usage { absorb(start, into: &result) }
        case "content_block_start":
            guard let index = decoded.index, let block = decoded.contentBlock else { return }
            blockTypes[index] = block.type
            if block.type == "text", !structured, let text = block.text, !text.isEmpty { append(text, &result, &deltas) }
            if block.type == "tool_use", !structured {
                let position = toolCallPositions.count
                toolCallPositions[index] = position
                result.addToolCall(ToolCallDelta(index: position, id: block.id, name: block.name))
            }
        case "content_block_delta":
            guard let delta = decoded.delta else { return }
            switch delta.type {
            case "text_delta" where !structured:
                if let text = delta.text { append(text, &result, &deltas) }
            case "input_json_delta" where structured:
                if let json = delta.partialJSON { append(json, &result, &deltas) }
            case "input_json_delta":
                guard let index = decoded.index, let position = toolCallPositions[index],
                    let json = delta.partialJSON, !json.isEmpty
                else { return }
                toolBlocksWithInput.insert(index)
                result.addToolCall(ToolCallDelta(index: position, argumentsFragment: json))
            default:
                break  // thinking, signatures, tool input when no schema was asked for
            }
        case "message_delta":
            if let reason = decoded.delta?.stopReason { result.finishReason = try AnthropicWire.finishReason(reason, context: context) }
            if let later = decoded.usage { absorb(later, into: &result) }
        case "content_block_stop":
            if let index = decoded.index, let position = toolCallPositions[index], !toolBlocksWithInput.contains(index) {
                toolBlocksWithInput.insert(index)
                result.addToolCall(ToolCallDelta(index: position, argumentsFragment: "{}"))
            }
        case "message_stop":
            result.complete = true
        case "error":
            throw AnthropicErrorMapper.map(streamError: AnthropicErrorBody(data: data) ?? AnthropicErrorBody(message: event.data), context: context)
        default:
            break  // ping, and event types added later (the API's versioning policy allows them)
        }
    }

    private func append(_ text: String, _ result: inout WireResult, _ deltas: inout [String]) {
        guard !text.isEmpty else { return }
        result.text += text
        deltas.append(text)
    }

    private mutating func absorb(_ later: AnthropicUsage, into result: inout WireResult) {
        usage.merge(later)
        result.usage = usage.tokenUsage
    }
}
