import Foundation
import HybridCore

/// The body of `POST /chat/completions`, built from a `GenerationRequest`.
///
/// Optional fields left nil are omitted from the JSON, so each server applies its own default.
/// Field names and shapes follow the OpenAI Chat Completions reference; llama.cpp, vLLM and Ollama accept the same.
struct OpenAIChatRequest: Encodable, Equatable {
    struct Message: Encodable, Equatable {
        var role: String
        var content: String
    }

    struct StreamOptions: Encodable, Equatable {
        var includeUsage: Bool
        enum CodingKeys: String, CodingKey { case includeUsage = "include_usage" }
    }

    struct ResponseFormat: Encodable, Equatable {
        struct Schema: Encodable, Equatable {
            var name: String
            var schema: JSONValue
            var strict: Bool
        }
        var type = "json_schema"
        var jsonSchema: Schema
        enum CodingKeys: String, CodingKey {
            case type
            case jsonSchema = "json_schema"
        }
    }

    var model: String
    var messages: [Message]
    var temperature: Double?
    var topP: Double?
    var maxTokens: Int?
    var maxCompletionTokens: Int?
    var seed: Int?
    var stream: Bool
    var streamOptions: StreamOptions?
    var responseFormat: ResponseFormat?

    enum CodingKeys: String, CodingKey {
        case model, messages, temperature, seed, stream
        case topP = "top_p"
        case maxTokens = "max_tokens"
        case maxCompletionTokens = "max_completion_tokens"
        case streamOptions = "stream_options"
        case responseFormat = "response_format"
    }

    init(_ request: GenerationRequest, model: String, stream: Bool, maxTokensParameter: OpenAICompatibleModel.MaxTokensParameter) {
        self.model = model
        var messages: [Message] = []
        if let instructions = request.instructions, !instructions.isEmpty {
            messages.append(Message(role: "system", content: instructions))
        }
        messages += request.messages.map { Message(role: $0.role.rawValue, content: $0.content) }
        self.messages = messages

        let options = request.options
        temperature = options.temperature
        switch options.sampling {
        case .greedy:
            // The API has no greedy switch; temperature 0 is the documented way to get (near-)deterministic output.
            temperature = 0
        case .topP(let p):
            topP = p
        case nil:
            break
        }
        switch maxTokensParameter {
        case .maxTokens: maxTokens = options.maxOutputTokens
        case .maxCompletionTokens: maxCompletionTokens = options.maxOutputTokens
        }
        seed = options.seed
        self.stream = stream
        // Without include_usage a stream carries no token counts at all.
        streamOptions = stream ? StreamOptions(includeUsage: true) : nil
        if let schema = request.responseSchema {
            responseFormat = ResponseFormat(
                jsonSchema: .init(name: Self.schemaName(request.responseSchemaName), schema: schema, strict: true)
            )
        }
    }

    /// OpenAI requires `json_schema.name` to match `^[a-zA-Z0-9_-]{1,64}$`; anything else becomes `_`.
    static func schemaName(_ name: String) -> String {
        let cleaned = String(
            name.unicodeScalars.prefix(64).map { scalar -> Character in
                let ok = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
                return ok ? Character(scalar) : "_"
            }
        )
        return cleaned.isEmpty ? "response" : cleaned
    }
}
