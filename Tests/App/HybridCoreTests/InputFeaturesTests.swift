@testable import HybridCore
import Testing

@Suite("Input features: each measured as config-reference.md defines it")
struct InputFeaturesTests {
    static func measure(_ messages: [ChatMessage], instructions: String? = nil, tools: Int = 0) -> InputFeatures {
        var request = GenerationRequest(instructions: instructions, messages: messages)
        request.tools = (0..<tools).map { ToolDefinition(name: "t\($0)", description: "", parameters: .object([:])) }
        return InputFeatures(request)
    }

    static func measure(_ text: String) -> InputFeatures { measure([.user(text)]) }

    @Test("sizes: characters are scalars of the messages, tokens include the instructions, lines and turns count messages")
    func sizes() {
        let f = Self.measure([.user("héllo\nworld"), .assistant("ok"), .user("again")], instructions: String(repeating: "x", count: 40))
        #expect(f.inputCharacters == 11 + 2 + 5)
        #expect(f.inputTokens == 10 + 3 + 1 + 2, "a quarter of each text's scalars, rounded up, instructions included")
        #expect(f.inputLines == 2 + 1 + 1)
        #expect(f.turns == 2)
        #expect(Self.measure([.user("a")], tools: 3).toolsOffered == 3)
    }

    @Test("code: a fence, or two lines ending in ; { }; one such line is prose")
    func code() {
        #expect(Self.measure("look:\n```\nx\n```").hasCode)
        #expect(Self.measure("int x = 1;\nif (x) {\n").hasCode)
        #expect(Self.measure("int x = 1;\nif (x) {").hasCode, "the last line counts without a line feed")
        #expect(!Self.measure("We met at noon; it rained.\nThen we left.").hasCode)
        #expect(!Self.measure("two `ticks` only").hasCode)
    }

    @Test("JSON: an object's start with a quoted key, across line feeds before the key, not in prose braces")
    func json() {
        #expect(Self.measure(#"payload {"id": 3}"#).hasJSON)
        #expect(Self.measure("{\n  \"id\" : 3\n}").hasJSON)
        #expect(!Self.measure("a set {1, 2} and {x}").hasJSON)
        #expect(!Self.measure("{\"broken\nkey\": 1}").hasJSON, "a key does not span lines")
    }

    @Test("URL: a scheme followed by something")
    func url() {
        #expect(Self.measure("see https://example.com/a").hasURL)
        #expect(Self.measure("see http://x").hasURL)
        #expect(!Self.measure("the http:// prefix").hasURL)
        #expect(!Self.measure("hyphen happy hours").hasURL)
    }

    @Test("shares: digits over non-blank scalars, non-Latin letters over letters")
    func shares() {
        let digits = Self.measure("ab 12\n34")
        #expect(digits.value(.digitShare) == 4.0 / 6.0)
        let mixed = Self.measure("abcé Привет 日本")
        #expect(mixed.value(.nonLatinShare) == 8.0 / 12.0, "é is Latin; Cyrillic and Han are not")
        #expect(Self.measure("123 456").value(.nonLatinShare) == 0)
        #expect(Self.measure("   ").value(.digitShare) == 0)
    }

    @Test("unmeasurable: blank, a NUL, or a tenth of the scalars control characters or U+FFFD")
    func unmeasurable() {
        #expect(Self.measure("plain text").isMeasurable)
        #expect(!Self.measure(" \n\t").isMeasurable)
        #expect(!Self.measure("text\u{0}more").isMeasurable)
        #expect(!Self.measure("ab\u{FFFD}\u{1}").isMeasurable)
        #expect(Self.measure(String(repeating: "a", count: 40) + "\u{1}").isMeasurable, "a stray control character is text")
        #expect(!Self.measure([]).isMeasurable)
    }

    @Test("flags read as 1 and 0 for learning")
    func values() {
        let f = Self.measure("```\ncode\n```")
        #expect(f.value(.hasCode) == 1 && f.value(.hasURL) == 0)
        #expect(InputFeatures.Name.allCases.filter(\.isFlag) == [.hasCode, .hasJSON, .hasURL])
    }
}
