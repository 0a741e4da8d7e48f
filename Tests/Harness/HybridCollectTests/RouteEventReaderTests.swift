import Foundation
@testable import HybridCollect
@testable import HybridCore
import HybridEvents
import HybridReport
import HybridTestSupport
import Testing

/// The one event reader (the member table `RouteEvent.jsonMembers`): it reads whatever `JSONEncoder` writes as
/// `JSONDecoder` does, and refuses anything else with the member's JSON path.
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

    @Test func generatedEventsReadAsJSONDecoderDoesInEveryEncoderStyle() throws {
        var rng = SplitMix64(seed: 14)
        let events = (0..<300).map { _ in Self.event(&rng) }
        let styles: [JSONEncoder.OutputFormatting] = [[], [.sortedKeys], [.prettyPrinted], [.withoutEscapingSlashes, .sortedKeys]]
        for style in styles {
            let encoder = JSONEncoder()
            encoder.outputFormatting = style
            for event in events {
                let line = try encoder.encode(event)
                let reference = try JSONDecoder().decode(RouteEvent.self, from: line)
                #expect(RouteEventReader.decodeLine(line) == .success(reference), "\(String(decoding: line, as: UTF8.self))")
            }
            let batch = try LenientEventBatch(data: try encoder.encode(RouteEventBatch(events: events, droppedEvents: 3)))
            #expect(batch.events == events.map { .success($0) })
            #expect(batch.droppedEvents == 3)
        }
    }

    @Test func theTableWriterWritesWhatJSONDecoderAndTheReaderReadBack() throws {
        var rng = SplitMix64(seed: 21)
        for _ in 0..<300 {
            let event = Self.event(&rng)
            let line = try RouteEventLines.line(event)
            #expect(try JSONDecoder().decode(RouteEvent.self, from: line) == event)
            #expect(RouteEventReader.decodeLine(line) == .success(event))
        }
        let batch = RouteEventBatch(events: [Self.event(&rng)], droppedEvents: 2)
        #expect(try JSONDecoder().decode(RouteEventBatch.self, from: Data(try batch.jsonBytes())) == batch)
    }

    /// Every stored property of an event (and of its nested values) is a line of its member table, so every
    /// member is read and written by the table's reader and writer: no member is skipped, or left to another path.
    @Test func everyStoredPropertyIsAMemberOfItsTable() {
        func expectCovered<T: JSONMemberObject>(_ value: T, _ name: String) {
            let properties = Set(Mirror(reflecting: value).children.compactMap { child in
                child.label.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 }
            })
            let members = Set(T.jsonMembers.members.map { "\($0.name)" })
            #expect(properties == members, "\(name): properties without a member \(properties.subtracting(members).sorted()), members without a property \(members.subtracting(properties).sorted())")
        }
        expectCovered(RouteEvent.jsonPlaceholder, "RouteEvent")
        expectCovered(RouteEvent.Attempt.jsonPlaceholder, "RouteEvent.Attempt")
        expectCovered(RouteEvent.Check.jsonPlaceholder, "RouteEvent.Check")
        expectCovered(RouteEvent.Content.jsonPlaceholder, "RouteEvent.Content")
        expectCovered(RouteEventBatch.jsonPlaceholder, "RouteEventBatch")
    }

    /// An event with every optional member set, through `JSONEncoder` (the synthesized `Codable`, which covers every
    /// property) and back through the table: a line pointing at the wrong property, or none, fails here.
    @Test func anEventWithEveryMemberSetSurvivesTheReader() throws {
        let event = RouteEvent(
            id: "e1", timestamp: Date(timeIntervalSince1970: 1_800_000_000.123), installId: "i", feature: "f",
            configVersion: 4, configHash: "h", variant: "v", rolloutArm: "arm", bucket: 17, servedBy: "m",
            servedTier: .thirdParty, outcome: .servedFailing, errorKind: "timeout",
            attempts: [.init(model: "m", tier: .onDevice, outcome: .failed, errorKind: "k", skipReason: "s", startMs: 1, durationMs: 2)],
            ttftMs: 3, latencyMs: 4, inputTokens: 5, outputTokens: 6, tokensEstimated: true, costUSD: 0.5,
            checks: [.init(name: "schema", passed: true)], cacheHit: true, labels: ["os": "iOS"],
            content: .init(inputs: ["text": "t"], output: "o"), condition: "beta")
        #expect(RouteEventReader.decodeLine(try JSONEncoder().encode(event)) == .success(event))
        #expect(RouteEventReader.decodeLine(try RouteEventLines.line(event)) == .success(event))
    }

    static let mutations: [(member: String, replacement: String, reason: String)] = [
        ("installId", "", "installId: missing"),
        ("latencyMs", #""latencyMs":"fast""#, "latencyMs: expected a finite number"),
        ("timestamp", #""timestamp":"yesterday""#, #"timestamp: expected an ISO 8601 date such as 2026-11-22T22:26:18.123Z, got "yesterday""#),
        ("configVersion", #""configVersion":3.0"#, "configVersion: expected an integer"),
        ("inputTokens", #""inputTokens":99999999999999999999"#, "inputTokens: expected an integer"),
        ("latencyMs", #""latencyMs":1e400"#, "latencyMs: expected a finite number"),
        ("servedTier", #""servedTier":"moon""#, #"servedTier: unknown value "moon""#),
        ("labels", #""labels":{"a":"1","a":"2"}"#, "labels.a: duplicate member"),
        ("labels", #""labels":{"os":3}"#, "labels: expected a string"),
        ("feature", #""feature":"a","feature":"b""#, "feature: duplicate member"),
        ("attempts", #""attempts":[{"model":"m","outcome":"served","startMs":0}]"#, "attempts[0].durationMs: missing"),
        ("attempts", #""attempts":[{"model":"m","outcome":"served","startMs":0,"durationMs":1,"tier":"moon"}]"#, #"attempts[0].tier: unknown value "moon""#),
        ("checks", #""checks":[{"name":"n"}]"#, "checks[0].passed: missing"),
        ("checks", #""checks":{}"#, "checks: expected an array"),
        ("cacheHit", #""cacheHit":1"#, "cacheHit: expected true or false"),
        ("content", #""content":{"output":"only"}"#, "content.inputs: missing"),
        ("id", #""id":7"#, "id: expected a string"),
    ]

    @Test func badMembersAreRefusedNamingTheirPath() throws {
        for (member, replacement, reason) in Self.mutations {
            let line = Data(try Self.mutated(member, replacement).utf8)
            #expect(RouteEventReader.decodeLine(line) == .failure(FieldEventRejection(reasons: [reason])), "\(member) → \(replacement)")
        }
    }

    @Test func membersJSONDecoderAcceptsAreReadAsItReadsThem() throws {
        let accepted = [
            ("timestamp", #""timestamp":"2026-11-22T22:26:18Z""#), ("timestamp", #""timestamp":"2026-11-22T22:26:18.5+02:00""#),
            ("inputTokens", #""inputTokens":1234567890123456789"#), ("latencyMs", #""latencyMs":-0.0"#),
            ("costUSD", #""costUSD":1.5E-3"#), ("costUSD", #""costUSD":0.1000000000000000055511151231257827"#),
            ("bucket", #""bucket":null"#), ("configHash", #""configHash":null"#), ("content", #""content":null"#),
            ("labels", #""labels":{"\u0041":"\ud83d\ude00","b":"\u00e9\/"}"#), ("feature", #""fe\u0061ture":"escaped key""#),
            ("extra", #""extra":{"a":[1,2.5e3,null,true,"x",{}],"b":[]}"#),
        ]
        for (member, replacement) in accepted {
            let line = Data(try Self.mutated(member, replacement).utf8)
            let reference = try JSONDecoder().decode(RouteEvent.self, from: line)
            #expect(RouteEventReader.decodeLine(line) == .success(reference), "\(member) → \(replacement)")
        }
    }

    @Test func aBadEventInABatchIsRefusedAloneNamingItsMember() throws {
        var rng = SplitMix64(seed: 9)
        let event = Self.event(&rng)
        let valid = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
        let elements = try Self.mutations.map { try Self.mutated($0.member, $0.replacement) } + ["3", "null", "[]"]
        let body = #"{"schemaVersion":1,"events":["# + ([valid] + elements + [valid]).joined(separator: ",") + "]}"
        let batch = try LenientEventBatch(data: Data(body.utf8))
        let expected: [Result<RouteEvent, FieldEventRejection>] = [.success(event)]
            + Self.mutations.map { .failure(FieldEventRejection(reasons: [$0.reason])) }
            + Array(repeating: .failure(FieldEventRejection(reasons: ["event: expected an object"])), count: 3) + [.success(event)]
        #expect(batch.events == expected)
    }

    @Test func bodiesThatAreNotBatchesFailNamingTheMember() throws {
        let bodies = [
            (#"{"schemaVersion":2,"events":[]}"#, "schemaVersion: 2 is not supported (this collector reads 1)"),
            (#"{"events":[]}"#, "schemaVersion: missing"), (#"{"schemaVersion":1}"#, "events: missing"),
            ("[]", "body: expected an object"), ("", "body: expected an object"),
            (#"{"schemaVersion":1,"events":[]} x"#, "body: unexpected text after the batch"),
            (#"{"schemaVersion":1,"events":[{}"#, "events: expected `,` or `]`"),
            (#"{"schemaVersion":1,"events":[01]}"#, "events[0]: not valid JSON"),
            (#"{"schemaVersion":1.0,"events":[]}"#, "schemaVersion: expected an integer"),
            (#"{"schemaVersion":1,"events":[],"droppedEvents":2.5}"#, "droppedEvents: expected an integer"),
            (#"{"schemaVersion":1,"events":[], "events":[]}"#, "events: duplicate member"),
        ]
        for (body, reason) in bodies {
            #expect(throws: CollectError.malformedBatch(reason), "\(body)") { try LenientEventBatch(data: Data(body.utf8)) }
        }
        let spaced = try LenientEventBatch(data: Data(" \n{ \"schemaVersion\" : 1 , \"events\" : [ ] , \"droppedEvents\" : null }\n".utf8))
        #expect(spaced.events.isEmpty && spaced.droppedEvents == nil)
    }

    @Test("the event line docs/field-experiments.md shows for `hybrid ingest` reads as a RouteEvent")
    func theDocumentedEventLineReads() throws {
        let doc = try String(contentsOf: ProjectRoot.url.appendingPathComponent("docs/field-experiments.md"), encoding: .utf8)
        let line = try #require(doc.split(separator: "\n").first { $0.hasPrefix("{\"id\": ") }, "no example event line")
        let event = try RouteEvent.readJSON(bytes: Array(line.utf8))
        #expect(event.feature == "summarize" && event.rolloutArm == "bullet" && event.attempts.count == 1)
    }
}
