import HybridCore

/// Reads the documented shapes of a streamed Chat Completions chunk and of a whole answer straight from their UTF-8
/// bytes into an ``OpenAIChatCompletionChunk`` or ``OpenAIChatCompletion``, without building a `JSONValue` tree
/// first (the tree, its dictionaries and their release were most of a sample's decoding cost: six chunks per
/// streamed answer).
///
/// It vouches only for what it fully understands: strings without escapes, integer token counts, `null`, and
/// scalar members it skips (`id`, `object`, `created`, `role`, …). Anything else (an escape, a nested value it does
/// not know such as `tool_calls`, `timings`, `error` or usage details, a number with a fraction) returns nil, and
/// the caller goes on to ``OpenAIFastParse`` and then the `Decodable` path, which give the same value or report
/// the problem. Members that are `null` are treated as missing, as those paths do.
struct OpenAIByteScanner {
    private typealias Stop = JSONByteScanner.Stop

    /// The JSON underneath: whitespace, punctuation, `null`, numbers and plain strings are its job.
    private var json: JSONByteScanner

    /// The chunk in `payload`, or nil when the scanner cannot vouch for it.
    static func chunk(_ payload: String) -> OpenAIChatCompletionChunk? {
        scan(payload) { (scanner) throws(Stop) in try scanner.readChunk() }
    }

    /// `read` over the whole of `text`, which must hold nothing after the value but white space; nil on a stop.
    private static func scan<T>(_ text: String, _ read: (inout OpenAIByteScanner) throws(Stop) -> T) -> T? {
        var text = text
        return text.withUTF8 { buffer in
            var scanner = OpenAIByteScanner(json: JSONByteScanner(buffer))
            guard let value = try? read(&scanner) else { return nil }
            scanner.json.skipWhitespace()
            return scanner.json.atEnd ? value : nil
        }
    }

    private mutating func readChunk() throws(Stop) -> OpenAIChatCompletionChunk {
        var chunk = OpenAIChatCompletionChunk()
        try readObject { (scanner, key) throws(Stop) in
            switch key {
            case "model": chunk.model = try scanner.readOptionalString()
            case "choices": chunk.choices = try scanner.readOptionalArray { (scanner) throws(Stop) in try scanner.readChoice() }
            case "usage": chunk.usage = try scanner.readUsage()
            default: try scanner.skipScalar()
            }
        }
        return chunk
    }

    /// The answer in `body`, or nil when the scanner cannot vouch for it (or `choices` is missing, which the
    /// `Decodable` path reports).
    static func completion(_ body: String) -> OpenAIChatCompletion? {
        scan(body) { (scanner) throws(Stop) in try scanner.readCompletion() }
    }

    private mutating func readCompletion() throws(Stop) -> OpenAIChatCompletion {
        var completion = OpenAIChatCompletion(choices: [])
        var sawChoices = false
        try readObject { (scanner, key) throws(Stop) in
            switch key {
            case "model": completion.model = try scanner.readOptionalString()
            case "choices":
                guard let choices = try scanner.readOptionalArray({ (scanner) throws(Stop) in try scanner.readChoice(messageKey: "message") })
                else { return }
                completion.choices = choices.map { .init(message: $0.message.map { .init(content: $0.content, refusal: $0.refusal) }, finishReason: $0.finishReason) }
                sawChoices = true
            case "usage": completion.usage = try scanner.readUsage()
            default: try scanner.skipScalar()
            }
        }
        guard sawChoices else { throw Stop() }
        return completion
    }

    /// A choice's message (or delta) and finish reason.
    private struct ChoiceParts {
        var message: (content: String?, refusal: String?)?
        var finishReason: String?
    }

    private mutating func readChoice() throws(Stop) -> OpenAIChatCompletionChunk.Choice {
        let parts = try readChoice(messageKey: "delta")
        return .init(delta: parts.message.map { .init(content: $0.content, refusal: $0.refusal) }, finishReason: parts.finishReason)
    }

    private mutating func readChoice(messageKey: String) throws(Stop) -> ChoiceParts {
        var parts = ChoiceParts()
        try readObject { (scanner, key) throws(Stop) in
            switch key {
            case messageKey: parts.message = try scanner.readMessage()
            case "finish_reason": parts.finishReason = try scanner.readOptionalString()
            default: try scanner.skipScalar()
            }
        }
        return parts
    }

    private mutating func readMessage() throws(Stop) -> (content: String?, refusal: String?)? {
        if try json.readNull() { return nil }
        var message: (content: String?, refusal: String?) = (nil, nil)
        try readObject { (scanner, key) throws(Stop) in
            switch key {
            case "content": message.content = try scanner.readOptionalString()
            case "refusal": message.refusal = try scanner.readOptionalString()
            // `tool_calls: null` is skipped; a list of calls is not a scalar and stops the scan.
            default: try scanner.skipScalar()
            }
        }
        return message
    }

    private mutating func readUsage() throws(Stop) -> OpenAIUsage? {
        if try json.readNull() { return nil }
        var usage = OpenAIUsage()
        try readObject { (scanner, key) throws(Stop) in
            switch key {
            case "prompt_tokens": usage.promptTokens = try scanner.readOptionalInt()
            case "completion_tokens": usage.completionTokens = try scanner.readOptionalInt()
            // Details objects are not scalars: they stop the scan (once per answer).
            default: try scanner.skipScalar()
            }
        }
        return usage
    }

    // MARK: JSON pieces

    /// Reads `{ "key": value, … }`, handing each key to `member`, which must consume the value.
    private mutating func readObject(_ member: (inout OpenAIByteScanner, String) throws(Stop) -> Void) throws(Stop) {
        guard try json.openObject() else { return }
        repeat {
            let key = try json.readUnescapedString()
            try json.expect(UInt8(ascii: ":"))
            try member(&self, key)
        } while try json.continues(before: UInt8(ascii: "}"))
    }

    private mutating func readOptionalArray<T>(_ element: (inout OpenAIByteScanner) throws(Stop) -> T) throws(Stop) -> [T]? {
        if try json.readNull() { return nil }
        var items: [T] = []
        guard try json.openArray() else { return items }
        repeat { items.append(try element(&self)) } while try json.continues(before: UInt8(ascii: "]"))
        return items
    }

    /// A string without escapes, or `null` (an escape stops the scan: the slower paths decode it).
    private mutating func readOptionalString() throws(Stop) -> String? {
        try json.readNull() ? nil : json.readUnescapedString()
    }

    /// An integer or `null`; a fraction, an exponent, a leading zero or too many digits stop the scan.
    private mutating func readOptionalInt() throws(Stop) -> Int? {
        try json.readNull() ? nil : json.readInt()
    }

    /// Skips a string without escapes, a number, `true`, `false` or `null`; an object or array stops the scan.
    private mutating func skipScalar() throws(Stop) {
        switch try json.peek() {
        case UInt8(ascii: "\""): _ = try json.readUnescapedString()
        case UInt8(ascii: "{"), UInt8(ascii: "["): throw Stop()
        default: try json.skipValue()
        }
    }
}
