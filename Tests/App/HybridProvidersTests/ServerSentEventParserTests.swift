import Foundation
@testable import HybridCore
@testable import HybridProviders
@testable import HybridValidation
import Testing

/// Cases follow the WHATWG HTML "Server-sent events" section, "Interpreting an event stream"
/// (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation).
@Suite("ServerSentEventParser")
struct ServerSentEventParserTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var input: String
        var expected: [ServerSentEvent]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "LF", input: "data: a\n\n", expected: [.init(data: "a")]),
        Case(name: "CRLF", input: "data: a\r\n\r\n", expected: [.init(data: "a")]),
        Case(name: "CR only", input: "data: a\r\rdata: b\r\r", expected: [.init(data: "a"), .init(data: "b")]),
        Case(name: "mixed line endings in one event", input: "data: a\r\ndata: b\rdata: c\n\n", expected: [.init(data: "a\nb\nc")]),
        Case(name: "multi-line data joined with LF", input: "data: first\ndata: second\n\n", expected: [.init(data: "first\nsecond")]),
        Case(name: "no space after colon", input: "data:a\n\n", expected: [.init(data: "a")]),
        Case(name: "only one leading space stripped", input: "data:  a\n\n", expected: [.init(data: " a")]),
        Case(name: "comment lines ignored", input: ": keep-alive\n\n: note\ndata: x\n\n", expected: [.init(data: "x")]),
        Case(name: "event type", input: "event: error\ndata: boom\n\n", expected: [.init(type: "error", data: "boom")]),
        Case(
            name: "event type resets after dispatch, id persists",
            input: "id: 7\nevent: ping\ndata: a\n\ndata: b\n\n",
            expected: [.init(type: "ping", data: "a", lastEventID: "7"), .init(data: "b", lastEventID: "7")]
        ),
        Case(name: "id with NUL ignored", input: "id: 1\u{0}2\ndata: a\n\n", expected: [.init(data: "a")]),
        Case(name: "field name without colon", input: "data\n\n", expected: [.init(data: "")]),
        Case(name: "empty data still dispatches", input: "data:\n\n", expected: [.init(data: "")]),
        Case(name: "trailing empty data line keeps one LF", input: "data: a\ndata:\n\n", expected: [.init(data: "a\n")]),
        Case(name: "event without data is not dispatched", input: "event: x\n\ndata: y\n\n", expected: [.init(data: "y")]),
        Case(name: "unknown fields ignored", input: "foo: bar\ndata: a\n\n", expected: [.init(data: "a")]),
        Case(name: "a field that only starts with data is unknown", input: "database: x\ndata : y\ndata:z\n\n", expected: [.init(data: "z")]),
        Case(name: "three data lines, the middle one empty", input: "data: a\ndata\ndata: c\n\n", expected: [.init(data: "a\n\nc")]),
        Case(name: "unfinished last event discarded", input: "data: a\n\ndata: b\n", expected: [.init(data: "a")]),
        Case(name: "byte order mark at start ignored", input: "\u{FEFF}data: a\n\n", expected: [.init(data: "a")]),
        Case(name: "colon inside value kept", input: "data: {\"k\": \"v: w\"}\n\n", expected: [.init(data: "{\"k\": \"v: w\"}")]),
        Case(name: "multi-byte UTF-8", input: "data: héllo 👋 世界\n\n", expected: [.init(data: "héllo 👋 世界")]),
    ]

    @Test("table", arguments: cases)
    func table(_ testCase: Case) {
        var parser = ServerSentEventParser()
        #expect(parser.feed(testCase.input) == testCase.expected)
    }

    @Test("every case gives the same events when split at every byte offset", arguments: cases)
    func splitAtEveryOffset(_ testCase: Case) {
        let bytes = Data(testCase.input.utf8)
        for offset in 0...bytes.count {
            var parser = ServerSentEventParser()
            let events = parser.feed(bytes.prefix(offset)) + parser.feed(bytes.dropFirst(offset))
            #expect(events == testCase.expected, "split at byte \(offset)")
        }
    }

    @Test("every case gives the same events when fed one byte at a time", arguments: cases)
    func byteByByte(_ testCase: Case) {
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        for byte in testCase.input.utf8 {
            events += parser.feed(Data([byte]))
        }
        #expect(events == testCase.expected)
    }

    @Test("a stream fixture split at every pair of offsets parses identically")
    func everyPairOfOffsets() {
        let input = "data: {\"a\":\"é👋\"}\r\n\r\n: c\r\nevent: x\rdata: 1\ndata: 2\r\n\r\ndata: [DONE]\n\n"
        let bytes = Data(input.utf8)
        var reference = ServerSentEventParser()
        let expected = reference.feed(bytes)
        #expect(expected == [.init(data: "{\"a\":\"é👋\"}"), .init(type: "x", data: "1\n2"), .init(data: "[DONE]")])
        for first in 0...bytes.count {
            for second in first...bytes.count {
                var parser = ServerSentEventParser()
                let events =
                    parser.feed(bytes[bytes.startIndex..<bytes.startIndex + first])
                    + parser.feed(bytes[bytes.startIndex + first..<bytes.startIndex + second])
                    + parser.feed(bytes[(bytes.startIndex + second)...])
                #expect(events == expected, "split at \(first) and \(second)")
            }
        }
    }

    @Test("a CR ending one chunk and the LF starting the next are one line break")
    func crLFAcrossChunks() {
        var parser = ServerSentEventParser()
        // Were the LF taken as a second (blank) line, "a" would be dispatched on its own.
        var events = parser.feed("data: a\r")
        events += parser.feed("\ndata: b\r")
        events += parser.feed("\n")
        #expect(events == [])
        events += parser.feed("\r\n")
        #expect(events == [.init(data: "a\nb")])
    }

    @Test("a multi-byte character split across chunks is decoded whole")
    func utf8SplitAcrossChunks() {
        let bytes = Array("data: 👋\n\n".utf8)
        let emojiStart = 6
        var parser = ServerSentEventParser()
        var events = parser.feed(Data(bytes[..<(emojiStart + 1)]))
        events += parser.feed(Data(bytes[(emojiStart + 1)..<(emojiStart + 3)]))
        events += parser.feed(Data(bytes[(emojiStart + 3)...]))
        #expect(events == [.init(data: "👋")])
    }

    @Test("retry sets the reconnection time only for ASCII digits")
    func retryField() {
        var parser = ServerSentEventParser()
        _ = parser.feed("retry: 1500\n\n")
        #expect(parser.reconnectionTime == .milliseconds(1500))
        _ = parser.feed("retry: 2.5\n\nretry: -1\n\nretry:\n\n")
        #expect(parser.reconnectionTime == .milliseconds(1500))
    }

    @Test("hasPendingEvent reports an event the stream ended in the middle of")
    func pendingEvent() {
        var parser = ServerSentEventParser()
        _ = parser.feed("data: a\n\n")
        #expect(!parser.hasPendingEvent)
        _ = parser.feed("data: b\n")
        #expect(parser.hasPendingEvent)
        _ = parser.feed("\n")
        #expect(!parser.hasPendingEvent)
        _ = parser.feed("dat")
        #expect(parser.hasPendingEvent)
    }
}
