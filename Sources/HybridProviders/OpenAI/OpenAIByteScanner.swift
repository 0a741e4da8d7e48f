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
    private struct Stop: Error {}

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The chunk in `payload`, or nil when the scanner cannot vouch for it.
    static func chunk(_ payload: String) -> OpenAIChatCompletionChunk? {
        scan(payload) { (scanner) throws(Stop) in try scanner.readChunk() }
    }

    /// `read` over the whole of `text`, which must hold nothing after the value but white space; nil on a stop.
    private static func scan<T>(_ text: String, _ read: (inout OpenAIByteScanner) throws(Stop) -> T) -> T? {
        var text = text
        return text.withUTF8 { buffer in
            var scanner = OpenAIByteScanner(buffer)
            guard let value = try? read(&scanner) else { return nil }
            scanner.skipWhitespace()
            return scanner.position == buffer.count ? value : nil
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
        if try readNull() { return nil }
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
        if try readNull() { return nil }
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
        try expect(UInt8(ascii: "{"))
        if try peek() == UInt8(ascii: "}") {
            position += 1
            return
        }
        repeat {
            let key = try readString()
            try expect(UInt8(ascii: ":"))
            try member(&self, key)
        } while try continues(before: UInt8(ascii: "}"))
    }

    private mutating func readOptionalArray<T>(_ element: (inout OpenAIByteScanner) throws(Stop) -> T) throws(Stop) -> [T]? {
        if try readNull() { return nil }
        try expect(UInt8(ascii: "["))
        var items: [T] = []
        if try peek() == UInt8(ascii: "]") {
            position += 1
            return items
        }
        repeat { items.append(try element(&self)) } while try continues(before: UInt8(ascii: "]"))
        return items
    }

    private mutating func readOptionalString() throws(Stop) -> String? {
        try readNull() ? nil : readString()
    }

    /// A string without escapes (an escape stops the scan: the slower paths decode it).
    private mutating func readString() throws(Stop) -> String {
        try expect(UInt8(ascii: "\""))
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(position - 1)]), as: UTF8.self)
            }
            guard byte != UInt8(ascii: "\\"), byte >= 0x20 else { throw Stop() }
            position += 1
        }
        throw Stop()
    }

    /// An integer or `null`; a fraction, an exponent or too many digits stop the scan.
    private mutating func readOptionalInt() throws(Stop) -> Int? {
        if try readNull() { return nil }
        var negative = false
        if bytes[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        var value = 0
        var digits = 0
        while position < bytes.count, (0x30...0x39).contains(bytes[position]), digits < 18 {
            value = value * 10 + Int(bytes[position] - 0x30)
            digits += 1
            position += 1
        }
        guard digits > 0, position < bytes.count, !Self.continuesNumber(bytes[position]) else { throw Stop() }
        // JSON allows no leading zeros ("01"); let the strict paths judge such a number.
        if digits > 1, bytes[position - digits] == 0x30 { throw Stop() }
        return negative ? -value : value
    }

    /// Skips a string, number, `true`, `false` or `null`; an object or array stops the scan.
    private mutating func skipScalar() throws(Stop) {
        let byte = try peek()
        switch byte {
        case UInt8(ascii: "\""): _ = try readString()
        case UInt8(ascii: "-"), 0x30...0x39:
            position += 1
            while position < bytes.count, Self.continuesNumber(bytes[position]) { position += 1 }
        default:
            for word in ["null", "true", "false"] where bytes[position...].starts(with: word.utf8) {
                position += word.utf8.count
                return
            }
            throw Stop()
        }
    }

    private static func continuesNumber(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
    }

    /// Consumes `null` (true) or leaves the next value in place (false).
    private mutating func readNull() throws(Stop) -> Bool {
        guard try peek() == UInt8(ascii: "n") else { return false }
        guard bytes[position...].starts(with: "null".utf8) else { throw Stop() }
        position += 4
        return true
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func peek() throws(Stop) -> UInt8 {
        skipWhitespace()
        guard position < bytes.count else { throw Stop() }
        return bytes[position]
    }

    private mutating func expect(_ byte: UInt8) throws(Stop) {
        guard try peek() == byte else { throw Stop() }
        position += 1
    }

    /// After a member or element: true at `,` (consumed), false at `close` (consumed).
    private mutating func continues(before close: UInt8) throws(Stop) -> Bool {
        let byte = try peek()
        position += 1
        if byte == UInt8(ascii: ",") { return true }
        guard byte == close else { throw Stop() }
        return false
    }
}
