import HybridCore

/// Reads a streamed Chat Completions chunk or a whole answer straight from its UTF-8 bytes: the one reader of
/// the eval's hottest JSON (six chunks per streamed answer), with no `JSONValue` tree and no `JSONDecoder` behind it.
///
/// It reads every member the adapter uses in every documented shape (Chat Completions reference,
/// https://platform.openai.com/docs/api-reference/chat/object and `…/chat-streaming`; llama.cpp's `timings`,
/// tools/server/README.md): strings with any escape, `tool_calls` whole or in streamed fragments, `usage` with its
/// details, `timings`, and an `error` member. Members it does not use are skipped whatever their shape, but still
/// validated; `null` counts as missing. Anything that is not valid JSON of these shapes gives nil, and the caller
/// reports the body as not a chat completion (or, when it is one, as the provider's error body).
struct OpenAIResponseReader {
    private typealias Stop = JSONByteScanner.Stop

    private var json: JSONByteScanner

    /// The chunk in `payload`, or nil when it is not one.
    static func chunk(_ payload: String) -> OpenAIChatCompletionChunk? {
        read(payload) { (reader) throws(Stop) in try reader.readChunk() }
    }

    /// The answer in `body`, or nil when it is not one (`choices` is required).
    static func completion(_ body: String) -> OpenAIChatCompletion? {
        read(body) { (reader) throws(Stop) in try reader.readCompletion() }
    }

    /// `read` over the whole of `text`, which must hold nothing after the value but white space.
    private static func read<T>(_ text: String, _ read: (inout OpenAIResponseReader) throws(Stop) -> T) -> T? {
        var text = text
        return text.withUTF8 { buffer in
            var reader = OpenAIResponseReader(json: JSONByteScanner(buffer))
            guard let value = try? read(&reader) else { return nil }
            reader.json.skipWhitespace()
            return reader.json.atEnd ? value : nil
        }
    }

    private mutating func readChunk() throws(Stop) -> OpenAIChatCompletionChunk {
        var chunk = OpenAIChatCompletionChunk()
        try readObject { (reader, key) throws(Stop) in
            switch key {
            case "model": chunk.model = try reader.readOptionalString()
            case "choices":
                chunk.choices = try reader.readOptionalArray { (reader) throws(Stop) in
                    let parts = try reader.readChoice(messageKey: "delta")
                    return .init(delta: parts.message, finishReason: parts.finishReason)
                }
            case "usage": chunk.usage = try reader.readUsage()
            case "timings": chunk.timings = try reader.readTimings()
            case "error":
                // The error body is read again, whole, by `OpenAIErrorBody`; here it only has to be there.
                if try !reader.json.readNull() {
                    try reader.json.skipValue()
                    chunk.hasError = true
                }
            default: try reader.json.skipValue()
            }
        }
        return chunk
    }

    private mutating func readCompletion() throws(Stop) -> OpenAIChatCompletion {
        var completion = OpenAIChatCompletion(choices: [])
        var sawChoices = false
        try readObject { (reader, key) throws(Stop) in
            switch key {
            case "model": completion.model = try reader.readOptionalString()
            case "choices":
                guard let choices = try reader.readOptionalArray({ (reader) throws(Stop) in try reader.readChoice(messageKey: "message") })
                else { return }
                completion.choices = choices.map { .init(message: $0.message, finishReason: $0.finishReason) }
                sawChoices = true
            case "usage": completion.usage = try reader.readUsage()
            case "timings": completion.timings = try reader.readTimings()
            default: try reader.json.skipValue()
            }
        }
        guard sawChoices else { throw Stop() }
        return completion
    }

    /// A choice's message (or delta) and finish reason.
    private struct ChoiceParts {
        var message: OpenAIMessage?
        var finishReason: String?
    }

    private mutating func readChoice(messageKey: String) throws(Stop) -> ChoiceParts {
        var parts = ChoiceParts()
        try readObject { (reader, key) throws(Stop) in
            switch key {
            case messageKey: parts.message = try reader.readMessage()
            case "finish_reason": parts.finishReason = try reader.readOptionalString()
            default: try reader.json.skipValue()
            }
        }
        return parts
    }

    private mutating func readMessage() throws(Stop) -> OpenAIMessage? {
        if try json.readNull() { return nil }
        var message = OpenAIMessage()
        try readObject { (reader, key) throws(Stop) in
            switch key {
            case "content": message.content = try reader.readOptionalString()
            case "refusal": message.refusal = try reader.readOptionalString()
            case "tool_calls": message.toolCalls = try reader.readOptionalArray { (reader) throws(Stop) in try reader.readToolCall() }
            default: try reader.json.skipValue()
            }
        }
        return message
    }

    /// A whole call (`message.tool_calls`) or a streamed piece of one (`delta.tool_calls`).
    private mutating func readToolCall() throws(Stop) -> OpenAIToolCallFragment {
        var call = OpenAIToolCallFragment()
        try readObject { (reader, key) throws(Stop) in
            switch key {
            case "index": call.index = try reader.readOptionalCount()
            case "id": call.id = try reader.readOptionalString()
            case "function":
                if try reader.json.readNull() { return }
                var function = OpenAIToolCallFragment.Function()
                try reader.readObject { (reader, key) throws(Stop) in
                    switch key {
                    case "name": function.name = try reader.readOptionalString()
                    case "arguments": function.arguments = try reader.readOptionalString()
                    default: try reader.json.skipValue()
                    }
                }
                call.function = function
            default: try reader.json.skipValue()
            }
        }
        return call
    }

    private mutating func readUsage() throws(Stop) -> OpenAIUsage? {
        if try json.readNull() { return nil }
        var usage = OpenAIUsage()
        try readObject { (reader, key) throws(Stop) in
            switch key {
            case "prompt_tokens": usage.promptTokens = try reader.readOptionalCount()
            case "completion_tokens": usage.completionTokens = try reader.readOptionalCount()
            case "prompt_tokens_details":
                usage.promptTokensDetails = try reader.readDetails("cached_tokens").map { .init(cachedTokens: $0) }
            case "completion_tokens_details":
                usage.completionTokensDetails = try reader.readDetails("reasoning_tokens").map { .init(reasoningTokens: $0) }
            default: try reader.json.skipValue()
            }
        }
        return usage
    }

    /// A details object's one count: `.some(nil)` for an object without it, nil for `null`.
    private mutating func readDetails(_ name: String) throws(Stop) -> Int?? {
        if try json.readNull() { return nil }
        var count: Int?
        try readObject { (reader, key) throws(Stop) in
            if key == name { count = try reader.readOptionalCount() } else { try reader.json.skipValue() }
        }
        return .some(count)
    }

    private mutating func readTimings() throws(Stop) -> LlamaCppTimings? {
        if try json.readNull() { return nil }
        var timings = LlamaCppTimings()
        try readObject { (reader, key) throws(Stop) in
            switch key {
            case "prompt_n": timings.promptN = try reader.readOptionalCount()
            case "prompt_ms": timings.promptMs = try reader.readOptionalDouble()
            case "predicted_n": timings.predictedN = try reader.readOptionalCount()
            case "predicted_ms": timings.predictedMs = try reader.readOptionalDouble()
            case "predicted_per_second": timings.predictedPerSecond = try reader.readOptionalDouble()
            default: try reader.json.skipValue()
            }
        }
        return timings
    }

    // MARK: JSON pieces

    /// Reads `{ "key": value, … }`, handing each key to `member`, which must consume the value.
    private mutating func readObject(_ member: (inout OpenAIResponseReader, String) throws(Stop) -> Void) throws(Stop) {
        guard try json.openObject() else { return }
        repeat {
            let key = try json.readString()
            try json.expect(UInt8(ascii: ":"))
            try member(&self, key)
        } while try json.continues(before: UInt8(ascii: "}"))
    }

    private mutating func readOptionalArray<T>(_ element: (inout OpenAIResponseReader) throws(Stop) -> T) throws(Stop) -> [T]? {
        if try json.readNull() { return nil }
        var items: [T] = []
        guard try json.openArray() else { return items }
        repeat { items.append(try element(&self)) } while try json.continues(before: UInt8(ascii: "]"))
        return items
    }

    private mutating func readOptionalString() throws(Stop) -> String? {
        try json.readNull() ? nil : json.readString()
    }

    private mutating func readOptionalDouble() throws(Stop) -> Double? {
        try json.readNull() ? nil : json.readDouble()
    }

    /// A count written as an integer (`12`) or as a whole number some servers send (`12.0`, `1.2e1`).
    private mutating func readOptionalCount() throws(Stop) -> Int? {
        if try json.readNull() { return nil }
        let start = json
        if let count = try? json.readInt() { return count }
        json = start
        let value = try json.readDouble()
        guard value == value.rounded(.towardZero), abs(value) <= 9_007_199_254_740_992 else { throw Stop() }
        return Int(value)
    }
}
