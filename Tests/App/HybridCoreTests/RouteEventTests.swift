import Foundation
@testable import HybridCore
@testable import HybridValidation
import Testing

@Suite struct RouteEventTests {
    static func sample() -> RouteEvent {
        RouteEvent(
            id: "6F1C2A8E-0000-4000-8000-000000000001", timestamp: Date(timeIntervalSince1970: 1_795_386_378.123),
            installId: "install-7", feature: "summarize", configVersion: 12, configHash: "abc123", variant: "short",
            rolloutArm: "short-prompt", bucket: 4_217, servedBy: "cloud", servedTier: .thirdParty,
            outcome: .served,
            attempts: [
                .init(model: "local", tier: .onDevice, outcome: .failed, errorKind: "timeout", startMs: 0, durationMs: 812.5),
                .init(model: "cloud", tier: .thirdParty, outcome: .served, startMs: 812.5, durationMs: 403.25),
            ],
            ttftMs: 120, latencyMs: 1215.75, inputTokens: 310, outputTokens: 42, tokensEstimated: false,
            costUSD: 0.000_412, checks: [.init(name: "schema", passed: true), .init(name: "maxWords", passed: false)],
            cacheHit: false, labels: ["appVersion": "3.2.1", "os": "iOS 18.1", "deviceClass": "phone"],
            content: .init(inputs: ["input": "text"], output: "summary"))
    }

    @Test func roundTripsThroughJSONWithCamelCaseKeysAndMillisecondTimestamps() throws {
        let event = Self.sample()
        let data = try JSONEncoder().encode(event)
        let decoded = try JSONDecoder().decode(RouteEvent.self, from: data)
        #expect(decoded == event)
        let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["timestamp"] as? String == "2026-11-22T22:26:18.123Z")
        #expect(object["installId"] as? String == "install-7")
        #expect(object["rolloutArm"] as? String == "short-prompt")
        #expect(object["servedTier"] as? String == "third-party")
        #expect(object["outcome"] as? String == "served")
        let attempts = try #require(object["attempts"] as? [[String: Any]])
        #expect(attempts.first?["errorKind"] as? String == "timeout")
        #expect(attempts.first?["startMs"] as? Double == 0)
    }

    @Test func batchAndResponseRoundTrip() throws {
        let batch = RouteEventBatch(events: [Self.sample()], droppedEvents: 3)
        let data = try JSONEncoder().encode(batch)
        #expect(try JSONDecoder().decode(RouteEventBatch.self, from: data) == batch)
        #expect(String(decoding: data, as: UTF8.self).contains("\"schemaVersion\":1"))
        let response = RouteEventBatchResponse(accepted: 4, duplicates: 1, rejected: [.init(index: 2, reason: "events[2].feature: missing")])
        #expect(try JSONDecoder().decode(RouteEventBatchResponse.self, from: JSONEncoder().encode(response)) == response)
    }

    @Test func unknownOutcomesDecodeAsThemselves() throws {
        var event = Self.sample()
        event.outcome = RouteEvent.Outcome(rawValue: "shedLoad")
        event.attempts[0].outcome = RouteEvent.AttemptOutcome(rawValue: "hedged")
        let decoded = try JSONDecoder().decode(RouteEvent.self, from: JSONEncoder().encode(event))
        #expect(decoded.outcome.rawValue == "shedLoad")
        #expect(decoded.attempts[0].outcome.rawValue == "hedged")
    }

    @Test func optionalFieldsAreLeftOutWhenNil() throws {
        let event = RouteEvent(
            timestamp: Date(timeIntervalSince1970: 0), installId: "i", feature: "f", configVersion: 1, variant: "v",
            outcome: .declined, errorKind: "inputTooShort", latencyMs: 0.01)
        let text = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
        #expect(!text.contains("content"))
        #expect(!text.contains("rolloutArm"))
        #expect(text.contains("\"timestamp\":\"1970-01-01T00:00:00.000Z\""))
    }

    @Test func timestampsMatchFoundationsISO8601AcrossCenturies() throws {
        var generator = SystemRandomNumberGenerator()
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        for _ in 0..<500 {
            let ms = Int64.random(in: -2_208_988_800_000...7_258_118_400_000, using: &generator)
            let date = Date(timeIntervalSince1970: Double(ms) / 1000)
            let text = ISO8601Milliseconds.format(date)
            // Foundation's formatter truncates a binary fraction such as .8039999 to .803, so only the seconds are
            // compared with it; the milliseconds are checked against the integer they came from.
            #expect(text.prefix(19) == date.formatted(style).prefix(19))
            #expect(Int64(text.dropFirst(20).prefix(3)) == (ms % 1000 + 1000) % 1000)
            #expect(ISO8601Milliseconds.parse(text) == date)
        }
        #expect(ISO8601Milliseconds.parse("2026-11-22T23:06:18+01:00") == Date(timeIntervalSince1970: 1_795_385_178))
        #expect(ISO8601Milliseconds.parse("2026-13-22T22:06:18.000Z") == nil)
    }
}
