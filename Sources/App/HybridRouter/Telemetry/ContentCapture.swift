import HybridCore
import Tracing

/// The prompt and the answer as the conventions record content on attributes (`gen_ai.system_instructions`,
/// `gen_ai.input.messages`, `gen_ai.output.messages`: JSON text of role-and-parts messages). Only with
/// `RouterDefaults.captureMessageContent`: prompts hold what users typed. What reaches here is the rendered request
/// and the model's answer, never a model's configuration, so no API key or header can.
enum ContentCapture {
    static func add(_ request: GenerationRequest, _ response: GenerationResponse?, to attributes: inout AttributeList) {
        if let instructions = request.instructions {
            attributes.add(GenAINames.systemInstructions, JSONValue.array([textPart(instructions)]).canonicalJSON)
        }
        attributes.add(GenAINames.inputMessages, JSONValue.array(request.messages.map(message)).canonicalJSON)
        if let response {
            var output = message(ChatMessage.assistant(response.text, toolCalls: response.toolCalls))
            if case .object(var fields) = output {
                fields["finish_reason"] = .string(response.finishReason.conventionName)
                output = .object(fields)
            }
            attributes.add(GenAINames.outputMessages, JSONValue.array([output]).canonicalJSON)
        }
    }

    private static func message(_ message: ChatMessage) -> JSONValue {
        var parts: [JSONValue] = []
        if let id = message.toolCallID {
            parts.append(.object(["type": "tool_call_response", "id": .string(id), "response": .string(message.content)]))
        } else if !message.content.isEmpty {
            parts.append(textPart(message.content))
        }
        for call in message.toolCalls {
            parts.append(
                .object(["type": "tool_call", "id": .string(call.id), "name": .string(call.name), "arguments": .string(call.argumentsText)]))
        }
        return .object(["role": .string(message.role.rawValue), "parts": .array(parts)])
    }

    private static func textPart(_ text: String) -> JSONValue {
        .object(["type": "text", "content": .string(text)])
    }
}
