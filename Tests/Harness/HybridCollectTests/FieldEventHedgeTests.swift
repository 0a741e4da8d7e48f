import Foundation
import HybridCollect
import HybridCore
import HybridStore
import Testing

/// A field event is stored as hedged when its attempts show a race: a `lostRace`, or two calls that overlap.
@Suite struct FieldEventHedgeTests {
    static func event(_ attempts: [RouteEvent.Attempt]) -> RouteEvent {
        RouteEvent(
            timestamp: Date(timeIntervalSince1970: 1_800_000_000), installId: "i", feature: "summarize", configVersion: 3,
            variant: "plain", servedBy: "cloud", outcome: .served, attempts: attempts, latencyMs: 900)
    }

    static func stored(_ attempts: [RouteEvent.Attempt]) throws -> FieldEventRecord {
        try FieldEventRecord.validated(event(attempts)).get()
    }

    @Test func aLostRaceOrOverlappingCallsAreHedgedAndAFallbackIsNot() throws {
        // The router's own word wins over the inference.
        var said = Self.event([.init(model: "cloud", tier: .thirdParty, outcome: .served, startMs: 0, durationMs: 300)])
        said.hedged = true
        #expect(try FieldEventRecord.validated(said).get().hedged)
        let won = try Self.stored([
            .init(model: "device", tier: .onDevice, outcome: .lostRace, startMs: 0, durationMs: 900),
            .init(model: "cloud", tier: .thirdParty, outcome: .served, startMs: 600, durationMs: 300),
        ])
        #expect(won.hedged)
        #expect(!won.fellBack, "a raced model's win is not a fallback")
        let bothFailed = try Self.stored([
            .init(model: "device", tier: .onDevice, outcome: .failedChecks, startMs: 0, durationMs: 1_200),
            .init(model: "cloud", tier: .thirdParty, outcome: .failed, errorKind: "server_error", startMs: 600, durationMs: 100),
            .init(model: "other", tier: .thirdParty, outcome: .served, startMs: 1_200, durationMs: 300),
        ])
        #expect(bothFailed.hedged)
        let fellBack = try Self.stored([
            .init(model: "device", tier: .onDevice, outcome: .failed, errorKind: "timeout", startMs: 0, durationMs: 600),
            .init(model: "cloud", tier: .thirdParty, outcome: .served, startMs: 600, durationMs: 300),
        ])
        #expect(!fellBack.hedged && fellBack.fellBack)
    }
}
