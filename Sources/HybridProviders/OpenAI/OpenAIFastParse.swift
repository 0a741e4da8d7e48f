import HybridCore

/// Chat Completions bodies built straight from the core's JSON parser: every streamed chunk and every answer went
/// through Foundation's `JSONDecoder`, the largest per-request cost of a fast eval after storage (six decodes per
/// streamed answer). Only the documented shapes are taken this way; anything else (a member of an unexpected type)
/// gives nil, and the caller falls back to the `Decodable` path, which then reports the exact problem. Unknown
/// members are ignored, as the `Decodable` types ignore them; a message or delta carrying `tool_calls` gives nil.
/// `usage` and llama.cpp's `timings` (once per answer) go through ``JSONValueDecoder`` with their own coding keys.
enum OpenAIFastParse {
    static func chunk(_ payload: String) -> OpenAIChatCompletionChunk? {
        guard let members = object(payload) else { return nil }
        var chunk = OpenAIChatCompletionChunk()
        for (key, value) in members where value != .null {
            switch key {
            case "model":
                guard case .string(let model) = value else { return nil }
                chunk.model = model
            case "choices":
                guard let choices = list(value, { choice -> OpenAIChatCompletionChunk.Choice? in
                    guard let (message, finishReason) = self.choice(choice, messageKey: "delta") else { return nil }
                    return .init(delta: message.map { .init(content: $0.content, refusal: $0.refusal) }, finishReason: finishReason)
                }) else { return nil }
                chunk.choices = choices
            case "usage":
                guard let usage = Self.usage(value) else { return nil }
                chunk.usage = usage
            case "timings":
                guard let timings = try? JSONValueDecoder().decode(LlamaCppTimings.self, from: value) else { return nil }
                chunk.timings = timings
            case "error": chunk.error = value
            default: continue
            }
        }
        return chunk
    }

    static func completion(_ body: String) -> OpenAIChatCompletion? {
        guard let members = object(body) else { return nil }
        var completion = OpenAIChatCompletion(choices: [])
        var sawChoices = false
        for (key, value) in members where value != .null {
            switch key {
            case "model":
                guard case .string(let model) = value else { return nil }
                completion.model = model
            case "choices":
                guard let choices = list(value, { choice -> OpenAIChatCompletion.Choice? in
                    guard let (message, finishReason) = self.choice(choice, messageKey: "message") else { return nil }
                    return .init(message: message.map { .init(content: $0.content, refusal: $0.refusal) }, finishReason: finishReason)
                }) else { return nil }
                completion.choices = choices
                sawChoices = true
            case "usage":
                guard let usage = Self.usage(value) else { return nil }
                completion.usage = usage
            case "timings":
                guard let timings = try? JSONValueDecoder().decode(LlamaCppTimings.self, from: value) else { return nil }
                completion.timings = timings
            default: continue
            }
        }
        // `choices` is required by the `Decodable` type: without it, let that path report the error.
        return sawChoices ? completion : nil
    }

    /// `usage` read straight from the parsed value (the `Decodable` route was a hundredth of a fast eval's CPU);
    /// its `Decodable` decoding when a member has another shape than the documented integer counts.
    private static func usage(_ value: JSONValue) -> OpenAIUsage? {
        guard case .object(let members) = value else { return nil }
        guard let prompt = optionalInt(members["prompt_tokens"]),
            let completion = optionalInt(members["completion_tokens"]),
            let promptDetails = details(members["prompt_tokens_details"], "cached_tokens", { OpenAIUsage.PromptDetails(cachedTokens: $0) }),
            let completionDetails = details(
                members["completion_tokens_details"], "reasoning_tokens", { OpenAIUsage.CompletionDetails(reasoningTokens: $0) })
        else { return try? JSONValueDecoder().decode(OpenAIUsage.self, from: value) }
        return OpenAIUsage(
            promptTokens: prompt, completionTokens: completion, promptTokensDetails: promptDetails,
            completionTokensDetails: completionDetails)
    }

    /// A details object with its one count: `.some(nil)` when missing or null, nil for another shape.
    private static func details<T>(_ value: JSONValue?, _ key: String, _ make: (Int?) -> T) -> T?? {
        switch value {
        case nil, .null?: return .some(nil)
        case .object(let fields)?:
            guard let count = optionalInt(fields[key]) else { return nil }
            return .some(make(count))
        default: return nil
        }
    }

    /// `.some(nil)` for a missing or null member, `.some(n)` for an integer, nil for any other type.
    private static func optionalInt(_ value: JSONValue?) -> Int?? {
        switch value {
        case nil, .null?: .some(nil)
        case .int(let number)?: .some(number)
        default: nil
        }
    }

    private static func object(_ text: String) -> [String: JSONValue]? {
        guard let value = try? JSONValue(parsing: text), case .object(let members) = value else { return nil }
        return members
    }

    private static func list<T>(_ value: JSONValue, _ element: (JSONValue) -> T?) -> [T]? {
        guard case .array(let items) = value else { return nil }
        var out: [T] = []
        out.reserveCapacity(items.count)
        for item in items {
            guard let mapped = element(item) else { return nil }
            out.append(mapped)
        }
        return out
    }

    /// A choice's message (or delta) content and refusal, and its finish reason; nil on an unexpected type.
    private static func choice(
        _ value: JSONValue, messageKey: String
    ) -> (message: (content: String?, refusal: String?)?, finishReason: String?)? {
        guard case .object(let members) = value else { return nil }
        var message: (content: String?, refusal: String?)?
        switch members[messageKey] {
        case nil, .null?: message = nil
        case .object(let fields)?:
            // Tool calls (and their streamed fragments) are read by the `Decodable` path only.
            if let calls = fields["tool_calls"], calls != .null { return nil }
            guard let content = optionalString(fields["content"]), let refusal = optionalString(fields["refusal"]) else { return nil }
            message = (content, refusal)
        default: return nil
        }
        guard let finishReason = optionalString(members["finish_reason"]) else { return nil }
        return (message, finishReason)
    }

    /// `.some(nil)` for a missing or null member, `.some(text)` for a string, nil for any other type.
    private static func optionalString(_ value: JSONValue?) -> String?? {
        switch value {
        case nil, .null?: .some(nil)
        case .string(let text)?: .some(text)
        default: nil
        }
    }
}
