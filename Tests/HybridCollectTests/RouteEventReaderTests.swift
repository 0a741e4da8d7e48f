import Foundation
@testable import HybridCollect
import HybridCore
import HybridReport
import Testing

/// The byte-level reader against `JSONDecoder`, the reference: on every input, valid or not, the collector's batch
/// and line decoding must give exactly what `JSONDecoder` gives (events, rejection reasons, whole-body errors).
@Suite struct RouteEventReaderTests {
    static let texts = [
        "", "summarize", "caf\u{E9}", "\u{1F600} ok", "\u{4E2D}\u{6587}", "quote \" back \\ slash /", "tab\tnew\nline\r",
        "ctl \u{01}\u{1F}", "nul \u{0}", "iOS 18.1", String(repeating: "x", count: 40),
    ]
    static let numbers: [Double] = [0, 0.1, 1e-7, 80, 123_456.789, 1e300, .leastNonzeroMagnitude, 0.000_03, 2.5, 1 / 3, 0.1 + 0.2, 9_007_199_254_740_992]

    static func text(_ rng: inout SplitMix64) -> String { texts.randomElement(using: &rng)! }
    static func number(_ rng: inout SplitMix64) -> Double { numbers.randomElement(using: &rng)! }
    static func maybe<T>(_ rng: inout SplitMix64, _ value: T) -> T? { Bool.random(using: &rng) ? value : nil }

    static func event(_ rng: inout SplitMix64) -> RouteEvent {
        let attempts = (0..<Int.random(in: 0...3, using: &rng)).map { _ in
            RouteEvent.Attempt(
                model: text(&rng), tier: maybe(&rng, ModelTier.allCases.randomElement(using: &rng)!),
                outcome: .init(rawValue: text(&rng)), errorKind: maybe(&rng, text(&rng)),
                skipReason: maybe(&rng, "privacy"), startMs: number(&rng), durationMs: number(&rng))
        }
        var labels: [String: String] = [:]
        for _ in 0..<Int.random(in: 0...3, using: &rng) { labels[text(&rng)] = text(&rng) }
        return RouteEvent(
            id: UUID().uuidString, timestamp: Date(timeIntervalSince1970: Double.random(in: -1e9...4e9, using: &rng)),
            installId: text(&rng), feature: text(&rng), configVersion: Int.random(in: -5...Int(Int32.max), using: &rng),
            configHash: maybe(&rng, text(&rng)), variant: text(&rng), rolloutArm: maybe(&rng, text(&rng)),
            bucket: maybe(&rng, Int.random(in: -1...20_000, using: &rng)), servedBy: maybe(&rng, text(&rng)),
            servedTier: maybe(&rng, .privateCloud), outcome: .init(rawValue: text(&rng)),
            errorKind: maybe(&rng, text(&rng)), attempts: attempts, ttftMs: maybe(&rng, number(&rng)),
            latencyMs: -number(&rng), inputTokens: Int.random(in: -2...1_000_000_000_000, using: &rng),
            outputTokens: Int.random(in: 0...99, using: &rng), tokensEstimated: Bool.random(using: &rng),
            costUSD: number(&rng), checks: [.init(name: text(&rng), passed: Bool.random(using: &rng))],
            cacheHit: Bool.random(using: &rng), labels: labels,
            content: maybe(&rng, .init(inputs: ["text": text(&rng)], output: maybe(&rng, text(&rng)))))
    }

    /// What decoding a body gave; compared structurally (dictionaries print in no fixed order).
    enum Outcome: Equatable {
        case batch([Result<RouteEvent, FieldEventRejection>], dropped: Int?)
        case error(String)

        init(_ decode: () throws(CollectError) -> LenientEventBatch) {
            do {
                let batch = try decode()
                self = .batch(batch.events, dropped: batch.droppedEvents)
            } catch {
                self = .error(error.message)
            }
        }
    }

    /// A batch decoded both ways, compared (events with reasons, dropped count, or the whole-body error).
    static func expectSameAsReference(_ body: Data, sourceLocation: SourceLocation = #_sourceLocation) {
        let fast = Outcome { () throws(CollectError) in try LenientEventBatch(data: body) }
        let reference = Outcome { () throws(CollectError) in try LenientEventBatch.referenceDecode(body) }
        if case .batch(let fastEvents, _) = fast, case .batch(let referenceEvents, _) = reference,
            fastEvents.count == referenceEvents.count
        {
            // Element by element, so a failure names the event that differs.
            for (index, (one, other)) in zip(fastEvents, referenceEvents).enumerated() {
                #expect(one == other, "event \(index)", sourceLocation: sourceLocation)
            }
        }
        #expect(fast == reference, "\(String(decoding: body.prefix(300), as: UTF8.self))", sourceLocation: sourceLocation)
    }

    @Test func generatedEventsDecodeAsJSONDecoderDoesInEveryEncoderStyle() throws {
        var rng = SplitMix64(seed: 14)
        let events = (0..<300).map { _ in Self.event(&rng) }
        let styles: [JSONEncoder.OutputFormatting] = [[], [.sortedKeys], [.prettyPrinted], [.withoutEscapingSlashes, .sortedKeys]]
        for style in styles {
            let encoder = JSONEncoder()
            encoder.outputFormatting = style
            for event in events {
                let line = try encoder.encode(event)
                // The reader itself must take these (not hand them to JSONDecoder), or the comparison proves nothing.
                let fast = try #require(RouteEventReader.fastDecode(line), "\(String(decoding: line, as: UTF8.self))")
                #expect(.success(fast) == RouteEventReader.referenceDecode(line))
            }
            let body = try encoder.encode(RouteEventBatch(events: events, droppedEvents: 3))
            #expect(LenientEventBatch.fastRead(body) != nil)
            Self.expectSameAsReference(body)
        }
    }

    /// One valid event's JSON with `member` replaced (or added when absent) by `replacement` (`"key": value`, or
    /// nothing to remove it).
    static func mutated(_ member: String, _ replacement: String) throws -> String {
        var rng = SplitMix64(seed: 7)
        var text = String(decoding: try JSONEncoder().encode(event(&rng)), as: UTF8.self)
        if let range = text.range(of: #""\#(member)":"#) {
            // Members of the encoded event are flat values or bracketed; cut up to the next top-level comma.
            var depth = 0
            var inString = false
            var end = range.upperBound
            var escaped = false
            while end < text.endIndex {
                let c = text[end]
                if inString {
                    if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
                } else if c == "\"" {
                    inString = true
                } else if c == "{" || c == "[" {
                    depth += 1
                } else if c == "}" || c == "]" {
                    if depth == 0 { break }
                    depth -= 1
                } else if c == ",", depth == 0 {
                    break
                }
                end = text.index(after: end)
            }
            text.replaceSubrange(range.lowerBound..<end, with: replacement.isEmpty ? #""unused":0"# : replacement)
        } else if !replacement.isEmpty {
            text.insert(contentsOf: replacement + ",", at: text.index(after: text.startIndex))
        }
        return text
    }

    static let mutations: [(String, String)] = [
        ("installId", ""), ("latencyMs", #""latencyMs":"fast""#), ("timestamp", #""timestamp":"yesterday""#),
        ("timestamp", #""timestamp":"2026-11-22T22:26:18Z""#), ("timestamp", #""timestamp":"2026-11-22T22:26:18.5+02:00""#),
        ("configVersion", #""configVersion":3.0"#), ("inputTokens", #""inputTokens":1e2"#),
        ("inputTokens", #""inputTokens":99999999999999999999"#), ("outputTokens", #""outputTokens":-0"#),
        ("latencyMs", #""latencyMs":1e400"#), ("latencyMs", #""latencyMs":-0.0"#), ("costUSD", #""costUSD":1.5E-3"#),
        ("costUSD", #""costUSD":0.1000000000000000055511151231257827"#), ("bucket", #""bucket":null"#),
        ("configHash", #""configHash":null"#), ("servedTier", #""servedTier":"moon""#), ("labels", #""labels":{"a":"1","a":"2"}"#),
        ("labels", #""labels":{"os":3}"#), ("labels", #""labels":{"\u0041":"\ud83d\ude00","b":"\u00e9\/"}"#),
        ("labels", #""labels":{"bad":"\ud800"}"#), ("feature", #""feature":"a","feature":"b""#),
        ("feature", #""fe\u0061ture":"escaped key""#), ("extra", #""extra":{"a":[1,2.5e3,null,true,"x",{}],"b":[]}"#),
        ("attempts", #""attempts":[{"model":"m","outcome":"served","startMs":0}]"#),
        ("attempts", #""attempts":[{"model":"m","outcome":"served","startMs":0,"durationMs":1,"tier":"moon"}]"#),
        ("checks", #""checks":[{"name":"n"}]"#), ("checks", #""checks":{}"#), ("cacheHit", #""cacheHit":1"#),
        ("content", #""content":{"output":"only"}"#), ("content", #""content":null"#), ("id", #""id":7"#),
    ]

    @Test func editedEventsGiveTheReferenceAnswerAlone() throws {
        for (member, replacement) in Self.mutations {
            let line = Data(try Self.mutated(member, replacement).utf8)
            #expect(RouteEventReader.decodeLine(line) == RouteEventReader.referenceDecode(line), "\(member) → \(replacement)")
        }
    }

    @Test func editedEventsGiveTheReferenceAnswerInsideABatch() throws {
        var rng = SplitMix64(seed: 9)
        let valid = String(decoding: try JSONEncoder().encode(Self.event(&rng)), as: UTF8.self)
        // A lone surrogate makes the whole body the reference's (decoders disagree about it), so it is left out here.
        let elements = try Self.mutations.filter { !$0.1.contains("ud800") }.map { try Self.mutated($0.0, $0.1) }
            + ["3", "null", #""text""#, "[]", "{}"]
        let body = #"{"schemaVersion":1,"events":["# + ([valid] + elements + [valid]).joined(separator: ",") + "]}"
        Self.expectSameAsReference(Data(body.utf8))
        #expect(LenientEventBatch.fastRead(Data(body.utf8)) != nil)
    }

    @Test func bodiesThatAreNotBatchesFailWithTheReferenceError() throws {
        var rng = SplitMix64(seed: 3)
        let valid = String(decoding: try JSONEncoder().encode(Self.event(&rng)), as: UTF8.self)
        let bodies = [
            #"{"schemaVersion":2,"events":[]}"#, #"{"events":[]}"#, #"{"schemaVersion":1}"#, "[]", "", "   ",
            #"{"schemaVersion":1,"events":[\#(valid)]} x"#, #"{"schemaVersion":1,"events":[\#(valid)"#,
            #"{"schemaVersion":1,"events":[\#(valid),]}"#, #"{"schemaVersion":1,"events":[01]}"#,
            #"{"schemaVersion":1,"events":[{"id":"a\u0001"}]}"#, "{\"schemaVersion\":1,\"events\":[{\"id\":\"raw\u{1}ctl\"}]}",
            #"{"schemaVersion":1.0,"events":[]}"#, #"{"schemaVersion":1,"events":[],"droppedEvents":null}"#,
            #"{"schemaVersion":1,"events":[],"droppedEvents":2.5}"#, #"{"schemaVersion":1,"events":[], "events":[]}"#,
            " \n{ \"schemaVersion\" : 1 , \"events\" : [ \(valid) ] , \"droppedEvents\" : 4 }\n",
            #"{"schemaVersion":1,"events":[{"x":"# + String(repeating: "[", count: 300) + String(repeating: "]", count: 300) + "}]}",
        ]
        for body in bodies {
            Self.expectSameAsReference(Data(body.utf8))
        }
        var invalidUTF8 = Data(#"{"schemaVersion":1,"events":[{"id":""#.utf8)
        invalidUTF8.append(contentsOf: [0xFF, 0xC3])
        invalidUTF8.append(contentsOf: Data(#""}]}"#.utf8))
        Self.expectSameAsReference(invalidUTF8)
    }
}
