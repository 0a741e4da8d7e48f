import Foundation
@testable import HybridConfig
@testable import HybridCore
@testable import HybridProviders
@testable import HybridValidation
import Testing

/// Unit tests for the pieces of the Anthropic, Gemini and Ollama wire formats that the conformance suite does
/// not pin down byte by byte.
@Suite("Provider wire formats")
struct ProviderWireFormatTests {
    // MARK: NDJSON

    static let ndjson = Data("{\"a\":\"ü\"}\r\n\n  \n{\"b\":\"👋\"}\n{\"c\":3}".utf8)

    @Test("NDJSON lines survive every split point, CRLF and blank lines; the last line needs no newline")
    func ndjsonSplitAnywhere() {
        let expected = [#"{"a":"ü"}"#, #"{"b":"👋"}"#, #"{"c":3}"#]
        for cut in 0...Self.ndjson.count {
            var parser = NDJSONLineParser()
            var lines = parser.feed(Self.ndjson.prefix(cut)) + parser.feed(Self.ndjson.dropFirst(cut))
            if let last = parser.finish() { lines.append(last) }
            #expect(lines.map { String(decoding: $0, as: UTF8.self) } == expected, "cut at \(cut)")
        }
    }

    @Test("NDJSON fed one byte at a time yields each line exactly once, when its newline arrives")
    func ndjsonByteByByte() {
        var parser = NDJSONLineParser()
        var linesAfterByte: [Int: Int] = [:]
        for (offset, byte) in Self.ndjson.enumerated() {
            let lines = parser.feed(Data([byte]))
            if !lines.isEmpty { linesAfterByte[offset] = lines.count }
        }
        #expect(linesAfterByte.values.reduce(0, +) == 2)
        #expect(Self.ndjson[linesAfterByte.keys.sorted()[0]] == 0x0A)
        #expect(parser.finish().map { String(decoding: $0, as: UTF8.self) } == #"{"c":3}"#)
        #expect(parser.finish() == nil)
    }

    // MARK: Ollama truncation heuristic

    @Test(
        "Ollama truncation is flagged only when the estimate exceeds the window and the evaluated count fell short",
        arguments: [
            (promptEvalCount: 2048, estimate: 3000, window: 2048, truncated: true),
            (promptEvalCount: 1500, estimate: 3000, window: 2048, truncated: true),
            (promptEvalCount: 26, estimate: 20, window: 2048, truncated: false),  // ordinary prompt
            (promptEvalCount: 3, estimate: 1500, window: 2048, truncated: false),  // cached prefix, fits the window
            (promptEvalCount: 2040, estimate: 2100, window: 2048, truncated: false),  // estimate slightly high: benefit of the doubt
        ])
    func ollamaTruncation(_ sample: (promptEvalCount: Int, estimate: Int, window: Int, truncated: Bool)) {
        #expect(OllamaWire.looksTruncated(promptEvalCount: sample.promptEvalCount, estimate: sample.estimate, window: sample.window) == sample.truncated)
    }

    // MARK: Gemini

    @Test("Gemini schema: upper-case types, nullable from type lists, unsupported keywords dropped, nesting kept")
    func geminiSchema() {
        let schema: JSONValue = [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "additionalProperties": false,
            "properties": [
                "tags": ["type": "array", "items": ["type": "string", "enum": ["a", "b"]], "minItems": 1],
                "note": ["type": ["string", "null"], "description": "optional"],
                "kind": ["const": "x"],
            ],
            "required": ["tags"],
        ]
        #expect(GeminiSchema.convert(schema) == [
            "type": "OBJECT",
            "properties": [
                "tags": ["type": "ARRAY", "items": ["type": "STRING", "enum": ["a", "b"]], "minItems": 1],
                "note": ["type": "STRING", "nullable": true, "description": "optional"],
                "kind": ["enum": ["x"]],
            ],
            "propertyOrdering": ["tags"],
            "required": ["tags"],
        ])
    }

    @Test("Gemini request: assistant turns are `model`, greedy is temperature 0, no generationConfig without options")
    func geminiRequest() throws {
        let request = GenerationRequest(
            messages: [.user("Hi"), .assistant("Hello"), .user("Bye")], options: GenerationOptions(sampling: .greedy, seed: 3))
        let encoded = try JSONValue(parsing: String(decoding: try #require(GeminiRequest(request).jsonBody()), as: UTF8.self))
        #expect(encoded["contents"]?.arrayValue?.map { $0["role"] } == ["user", "model", "user"])
        #expect(encoded["generationConfig"] == ["temperature": 0, "seed": 3])
        #expect(encoded["systemInstruction"] == nil)
        let bare = try JSONValue(parsing: String(decoding: try #require(GeminiRequest(GenerationRequest(prompt: "x")).jsonBody()), as: UTF8.self))
        #expect(bare["generationConfig"] == nil)
    }

    // MARK: Anthropic

    static let anthropic = HTTPModelSetup(
        id: "a", config: TestModels.config(.anthropic, model: "claude", capabilities: ModelCapabilities(contextWindow: 200_000, maxOutputTokens: 100)),
        settings: HTTPWireSettings())

    @Test("Anthropic request: max_tokens is always sent and capped; greedy is temperature 0; no empty system")
    func anthropicRequest() throws {
        let capped = AnthropicMessagesRequest(GenerationRequest(prompt: "x", instructions: ""), setup: Self.anthropic, stream: false)
        #expect(capped.maxTokens == 100)
        #expect(capped.system == nil)
        #expect(capped.stream == nil)
        let greedy = AnthropicMessagesRequest(
            GenerationRequest(prompt: "x", options: GenerationOptions(maxOutputTokens: 40, sampling: .greedy)),
            setup: Self.anthropic, stream: true)
        #expect(greedy.maxTokens == 40)
        #expect(greedy.temperature == 0)
        #expect(greedy.stream == true)
        #expect(AnthropicMessagesRequest.toolName("my schema!") == "my_schema_")
    }

    @Test("Anthropic usage: cache writes and reads count as prompt tokens and are reported apart; later events win")
    func anthropicUsage() {
        var usage = AnthropicUsage(inputTokens: 10, outputTokens: 1, cacheCreationInputTokens: 200, cacheReadInputTokens: 300)
        usage.merge(AnthropicUsage(outputTokens: 42))
        #expect(usage.tokenUsage == TokenUsage(promptTokens: 510, completionTokens: 42, cachedTokens: 300, cacheCreationTokens: 200))
        #expect(AnthropicUsage(outputTokens: 3).tokenUsage == nil)
    }

    @Test("Anthropic stream errors map by their documented type", arguments: [
        ("overloaded_error", GenerationError.Kind.unavailable), ("rate_limit_error", .rateLimited), ("api_error", .serverError),
        ("authentication_error", .authentication), ("invalid_request_error", .invalidRequest),
    ])
    func anthropicStreamErrorTypes(_ type: String, _ kind: GenerationError.Kind) {
        let context = WireContext(modelID: "m", redactor: APIKeyRedactor(key: nil))
        #expect(AnthropicErrorMapper.map(streamError: AnthropicErrorBody(type: type, message: "x"), context: context).kind == kind)
    }

    // MARK: Redaction

    @Test("Google-style keys are redacted even when they are not the configured key")
    func googleKeyRedaction() {
        let redactor = APIKeyRedactor(key: "other")
        #expect(redactor("bad key AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW, retry") == "bad key [redacted], retry")
    }

    // MARK: Token usage storage

    @Test("TokenUsage stored before cacheCreationTokens existed still decodes, as 0")
    func tokenUsageBackwardsCompatible() throws {
        let old = #"{"promptTokens":5,"completionTokens":2,"cachedTokens":1,"reasoningTokens":0,"isEstimated":false}"#
        let usage = try JSONDecoder().decode(TokenUsage.self, from: Data(old.utf8))
        #expect(usage == TokenUsage(promptTokens: 5, completionTokens: 2, cachedTokens: 1))
        let roundTrip = try JSONDecoder().decode(TokenUsage.self, from: JSONEncoder().encode(TokenUsage(promptTokens: 1, completionTokens: 1, cacheCreationTokens: 9)))
        #expect(roundTrip.cacheCreationTokens == 9)
    }
}
