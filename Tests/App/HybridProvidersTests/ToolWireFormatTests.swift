import Foundation
@testable import HybridCore
@testable import HybridProviders
@testable import HybridTesting
@testable import HybridValidation
import Testing

/// The parts of the tool mapping the conformance round trip does not reach: every tool choice in each format,
/// parallel results, and Anthropic's structured output when the app offers tools too.
@Suite("Tool wire formats")
struct ToolWireFormatTests {
    private func json(_ value: AnthropicMessagesRequest) throws -> JSONValue {
        try JSONValue(parsing: String(decoding: try #require(value.jsonBody()), as: UTF8.self))
    }

    private func json(_ value: GeminiRequest) throws -> JSONValue {
        try JSONValue(parsing: String(decoding: try #require(value.jsonBody()), as: UTF8.self))
    }

    private func json(_ value: OpenAIChatRequest) throws -> JSONValue {
        try JSONValue(parsing: String(decoding: try #require(value.jsonBody()), as: UTF8.self))
    }

    private func request(_ choice: ToolChoice?) -> GenerationRequest {
        var request = ProviderConformance.toolRequest
        request.toolChoice = choice
        return request
    }

    /// One tool choice and how each provider writes it.
    struct ChoiceCase: Sendable {
        var choice: ToolChoice
        var openAI: JSONValue
        var anthropic: JSONValue
        var gemini: JSONValue
    }

    static let choiceCases = [
        ChoiceCase(choice: .auto, openAI: "auto", anthropic: ["type": "auto"], gemini: ["mode": "AUTO"]),
        ChoiceCase(choice: .none, openAI: "none", anthropic: ["type": "none"], gemini: ["mode": "NONE"]),
        ChoiceCase(choice: .required, openAI: "required", anthropic: ["type": "any"], gemini: ["mode": "ANY"]),
        ChoiceCase(
            choice: .tool("convert_units"), openAI: ["type": "function", "function": ["name": "convert_units"]],
            anthropic: ["type": "tool", "name": "convert_units"],
            gemini: ["mode": "ANY", "allowedFunctionNames": ["convert_units"]]),
    ]

    @Test("each tool choice in OpenAI, Anthropic and Gemini form", arguments: choiceCases)
    func toolChoices(_ item: ChoiceCase) throws {
        let openAIBody = try json(OpenAIChatRequest(request(item.choice), model: "m", stream: false, maxTokensField: .maxTokens))
        #expect(openAIBody["tool_choice"] == item.openAI)
        let anthropicBody = try json(
            AnthropicMessagesRequest(request(item.choice), setup: ProviderWireFormatTests.anthropic, stream: false))
        #expect(anthropicBody["tool_choice"] == item.anthropic)
        #expect(try json(GeminiRequest(request(item.choice)))["toolConfig"]?["functionCallingConfig"] == item.gemini)
    }

    @Test("no tool choice leaves every provider's default; no tools sends no tools")
    func defaults() throws {
        #expect(try json(OpenAIChatRequest(request(nil), model: "m", stream: false, maxTokensField: .maxTokens))["tool_choice"] == nil)
        #expect(try json(GeminiRequest(request(nil)))["toolConfig"] == nil)
        let plain = try json(OpenAIChatRequest(GenerationRequest(prompt: "x"), model: "m", stream: false, maxTokensField: .maxTokens))
        #expect(plain["tools"] == nil)
        #expect(plain["messages"]?.arrayValue?.allSatisfy { $0["tool_calls"] == nil } == true)
    }

    @Test("parallel results share one Anthropic user turn and one Gemini user turn; a non-object result goes under output")
    func parallelResults() throws {
        let a = ToolCall(id: "t1", name: "lookup_album", arguments: ["title": "Blue"])
        let b = ToolCall(id: "t2", name: "convert_units", arguments: ["value": 36, "from": "minutes", "to": "hours"])
        var request = GenerationRequest(prompt: "q")
        request.tools = ProviderConformance.toolRequest.tools
        request.messages += [.assistant(toolCalls: [a, b]), .toolResult(for: a, content: "not json"), .toolResult(for: b, content: "0.6")]
        let anthropic = try json(AnthropicMessagesRequest(request, setup: ProviderWireFormatTests.anthropic, stream: false))
        #expect(anthropic["messages"]?.arrayValue?.map { $0["role"] } == ["user", "assistant", "user"])
        #expect(anthropic["messages"]?.arrayValue?[2]["content"]?.arrayValue?.map { $0["tool_use_id"] } == ["t1", "t2"])
        let gemini = try json(GeminiRequest(request))
        let parts = gemini["contents"]?.arrayValue?[2]["parts"]?.arrayValue
        #expect(parts?.map { $0["functionResponse"]?["response"] } == [["output": "not json"], ["output": 0.6]])
    }

    @Test("a last assistant turn (stream recovery's prefill) goes to Anthropic without the trailing white space it refuses")
    func anthropicPrefill() throws {
        var request = GenerationRequest(prompt: "Tell a story.")
        request.messages.append(.assistant("The river rose \n"))
        let anthropic = try json(AnthropicMessagesRequest(request, setup: ProviderWireFormatTests.anthropic, stream: false))
        #expect(anthropic["messages"]?.arrayValue?.last == ["role": "assistant", "content": "The river rose"])
    }

    @Test("Anthropic answers a schema through its forced tool only when the app offers no tools")
    func anthropicSchemaWithTools() throws {
        var request = ProviderConformance.structuredRequest
        let forced = try json(AnthropicMessagesRequest(request, setup: ProviderWireFormatTests.anthropic, stream: false))
        #expect(forced["tool_choice"] == ["type": "tool", "name": "person"])
        request.tools = [ProviderConformance.albumTool]
        let offered = try json(AnthropicMessagesRequest(request, setup: ProviderWireFormatTests.anthropic, stream: false))
        #expect(offered["tools"]?.arrayValue?.map { $0["name"] } == ["lookup_album"])
        #expect(offered["tool_choice"] == nil)
    }
}
