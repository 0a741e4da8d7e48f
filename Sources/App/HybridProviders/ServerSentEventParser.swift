import Foundation

/// One event dispatched from a `text/event-stream` body.
struct ServerSentEvent: Sendable, Hashable {
    /// The `event:` field, or `message` when the event had none.
    var type: String
    /// The `data:` lines joined with `\n` (the final newline removed, as the spec says).
    var data: String
    /// The last `id:` seen on the stream so far (it persists across events, per the spec).
    var lastEventID: String

    /// Creates an event (the parser does this; tests build expected values with it).
    init(type: String = "message", data: String, lastEventID: String = "") {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
    }
}

/// Incremental parser for the `text/event-stream` format ("Server-sent events", WHATWG HTML,
/// section "Interpreting an event stream").
///
/// Feed it the body chunks exactly as the transport delivers them: a chunk may end anywhere, including
/// between a CR and its LF or inside a multi-byte UTF-8 character, because lines are cut on raw bytes and
/// decoded only once complete. An event is dispatched at the blank line that ends it; an event the stream
/// ends in the middle of is discarded, as the spec requires. `retry:` is recorded in `reconnectionTime`.
struct ServerSentEventParser: Sendable {
    private var line: [UInt8] = []
    /// The previous chunk ended with CR, so an LF starting the next chunk belongs to the same line break.
    private var skipLeadingLF = false
    private var atStreamStart = true
    private var dataBuffer = ""
    private var hasData = false
    private var eventTypeBuffer = ""
    private var lastEventIDBuffer = ""

    /// The reconnection time from the last valid `retry:` field, if any.
    private(set) var reconnectionTime: Duration?

    /// A parser at the start of a stream.
    init() {}

    /// Consumes one chunk of the body and returns the events it completed, in order.
    mutating func feed(_ chunk: Data) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        // Whole runs between line ends are appended at once: `Data`'s byte iterator cost more than the rest
        // of a streamed answer's parsing.
        chunk.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var index = 0
            while index < buffer.count {
                if skipLeadingLF {
                    skipLeadingLF = false
                    if buffer[index] == 0x0A {
                        index += 1
                        continue
                    }
                }
                var end = index
                while end < buffer.count, buffer[end] != 0x0A, buffer[end] != 0x0D { end += 1 }
                line.append(contentsOf: buffer[index..<end])
                guard end < buffer.count else { break }
                if buffer[end] == 0x0D { skipLeadingLF = true }
                endLine(into: &events)
                index = end + 1
            }
        }
        return events
    }

    /// Feeds a string's UTF-8 bytes (convenience for tests and fixtures).
    mutating func feed(_ text: String) -> [ServerSentEvent] {
        feed(Data(text.utf8))
    }

    /// True when bytes of an unfinished line or event are buffered: the stream ended mid-event if this
    /// is true at the end of the body.
    var hasPendingEvent: Bool { !line.isEmpty || hasData || !eventTypeBuffer.isEmpty }

    private mutating func endLine(into events: inout [ServerSentEvent]) {
        var bytes = line[...]
        line.removeAll(keepingCapacity: true)
        if atStreamStart {
            atStreamStart = false
            // A UTF-8 byte order mark at the very start of the stream is ignored.
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        }
        if bytes.isEmpty {
            if let event = dispatch() { events.append(event) }
            return
        }
        if bytes.first == UInt8(ascii: ":") { return }  // comment line
        if bytes.starts(with: Self.dataPrefix) {
            // Nearly every line of a model's stream: decoded straight into the buffer, without a field name string.
            var valueBytes = bytes.dropFirst(Self.dataPrefix.count)
            if valueBytes.first == UInt8(ascii: " ") { valueBytes = valueBytes.dropFirst() }
            appendData(String(decoding: valueBytes, as: UTF8.self))
            return
        }
        let name: String
        var value: Substring
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            name = String(decoding: bytes[..<colon], as: UTF8.self)
            var valueBytes = bytes[bytes.index(after: colon)...]
            if valueBytes.first == UInt8(ascii: " ") { valueBytes = valueBytes.dropFirst() }
            value = Substring(String(decoding: valueBytes, as: UTF8.self))
        } else {
            name = String(decoding: bytes, as: UTF8.self)
            value = ""
        }
        process(field: name, value: &value)
    }

    private mutating func process(field: String, value: inout Substring) {
        switch field {
        case "event":
            eventTypeBuffer = String(value)
        case "data":
            appendData(String(value))
        case "id":
            if !value.contains("\u{0}") { lastEventIDBuffer = String(value) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isNumber }), let ms = Int64(value) {
                reconnectionTime = .milliseconds(ms)
            }
        default:
            break  // unknown fields are ignored
        }
    }

    private static let dataPrefix = Array("data:".utf8)

    /// Adds a `data:` line. Lines are joined with `\n` as they come, so the buffer never holds the final newline
    /// the spec removes (removing it meant a grapheme-aware `removeLast` per event).
    private mutating func appendData(_ value: String) {
        if hasData {
            dataBuffer += "\n"
            dataBuffer += value
        } else {
            dataBuffer = value
        }
        hasData = true
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            dataBuffer = ""
            hasData = false
            eventTypeBuffer = ""
        }
        guard hasData else { return nil }
        return ServerSentEvent(
            type: eventTypeBuffer.isEmpty ? "message" : eventTypeBuffer,
            data: dataBuffer,
            lastEventID: lastEventIDBuffer
        )
    }
}
