import HybridCore

/// Reads a streamed Chat Completions chunk or a whole answer straight from its UTF-8 bytes, through the member
/// tables of the answer's types (the one table-driven reader the Anthropic, Gemini and Ollama answers and route
/// events use too): the eval's hottest JSON (six chunks per streamed answer), with no `JSONValue` tree and no
/// `JSONDecoder` behind it.
///
/// The tables read every member the adapter uses in every documented shape (Chat Completions reference,
/// https://platform.openai.com/docs/api-reference/chat/object and `…/chat-streaming`; llama.cpp's `timings`,
/// tools/server/README.md): strings with any escape, `tool_calls` whole or in streamed fragments, `usage` with its
/// details, `timings`, and an `error` member. Members it does not use are skipped whatever their shape, but still
/// validated; `null` counts as missing; a member named twice is refused. Anything that is not valid JSON of these
/// shapes gives nil, and the caller reports the body as not a chat completion (or, when it is one, as the
/// provider's error body).
enum OpenAIResponseReader {
    /// The chunk in `payload`, or nil when it is not one.
    static func chunk(_ payload: String) -> OpenAIChatCompletionChunk? {
        read(payload)
    }

    /// The answer in `body`, or nil when it is not one (`choices` is required).
    static func completion(_ body: String) -> OpenAIChatCompletion? {
        read(body)
    }

    /// `T` read from the whole of `text`, which must hold nothing after the value but white space.
    private static func read<T: JSONMemberObject>(_ text: String) -> T? {
        var text = text
        return text.withUTF8 { buffer in
            try? readWhole(UnsafeRawBufferPointer(buffer)) { (json) throws(JSONMemberError) in try T.readJSON(&json) }
        }
    }
}

/// A token count written as an integer (`12`) or as a whole number some servers send (`12.0`, `1.2e1`).
struct OpenAICount: JSONMemberValue, Equatable {
    var value: Int

    static func readJSON(_ json: inout JSONByteScanner) throws(JSONMemberError) -> OpenAICount {
        let start = json
        if let count = try? json.readInt() { return OpenAICount(value: count) }
        json = start
        let value = try scanning("a count") { () throws(JSONByteScanner.Stop) in try json.readDouble() }
        guard value == value.rounded(.towardZero), abs(value) <= 9_007_199_254_740_992 else {
            throw JSONMemberError("expected a whole number")
        }
        return OpenAICount(value: Int(value))
    }

    func writeJSON(_ writer: inout JSONTextWriter) { writer.number(value) }
}

extension JSONMember {
    /// A count member stored as `Int?` (see ``OpenAICount``).
    static func count(_ name: StaticString, _ keyPath: any WritableKeyPath<Root, Int?> & Sendable) -> JSONMember<Root> {
        .member(name, get: { $0[keyPath: keyPath].map(OpenAICount.init) }, set: { $0[keyPath: keyPath] = $1?.value })
    }
}

/// A member whose value only has to be there (any JSON but `null`): a chunk's `error`, read again whole by
/// `OpenAIErrorBody`.
struct OpenAIPresence: JSONMemberValue {
    static func readJSON(_ json: inout JSONByteScanner) throws(JSONMemberError) -> OpenAIPresence {
        try scanning("a JSON value") { () throws(JSONByteScanner.Stop) in try json.skipValue() }
        return OpenAIPresence()
    }

    func writeJSON(_ writer: inout JSONTextWriter) { writer.raw("{}") }
}
