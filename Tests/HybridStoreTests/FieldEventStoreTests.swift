import Foundation
import HybridStore
import Testing

@Suite struct FieldEventStoreTests {
    static func event(_ id: String, install: String = "i1", arm: String? = "b", version: Int = 3) -> FieldEventRecord {
        FieldEventRecord(
            eventID: id, occurredAt: Date(timeIntervalSince1970: 1_700_000_000.123), installID: install,
            feature: "summarize-v2", configVersion: version, configHash: "abc", rolloutArm: arm, bucket: 42,
            variant: "concise", servedBy: "cloud", servedTier: "third-party", outcome: "served", errorKind: nil,
            attemptCount: 2, fellBack: true, ttftMs: 12.5, latencyMs: 80, inputTokens: 10, outputTokens: 20,
            tokensEstimated: false, costUSD: 0.0001, checksTotal: 2, failedChecks: ["json", "maxWords"], cacheHit: false,
            labels: ["os": "iOS \"18\"", "app": "1.2"])
    }

    @Test func eventsRoundTripIntoOneRunPerFeatureAndVersion() async throws {
        let store = SQLiteFieldEventStore(database: try HybridDatabase.inMemory())
        let outcome = try await store.insert([Self.event("e1"), Self.event("e2", arm: nil), Self.event("e3", version: 4)])
        #expect(outcome.accepted == 3)
        #expect(outcome.runIDs == ["field-summarize-v2-v3", "field-summarize-v2-v4"])
        let stored = try await store.events(run: "field-summarize-v2-v3")
        #expect(stored == [Self.event("e1"), Self.event("e2", arm: nil)])
        #expect(try await store.isFieldRun("field-summarize-v2-v4"))
        #expect(try await !store.isFieldRun("missing"))
    }

    @Test func aReSentBatchChangesNothing() async throws {
        let store = SQLiteFieldEventStore(database: try HybridDatabase.inMemory())
        try await store.insert([Self.event("e1"), Self.event("e2")])
        let again = try await store.insert([Self.event("e2"), Self.event("e1"), Self.event("e5")])
        #expect(again.accepted == 1)
        #expect(again.duplicates == 2)
        #expect(try await store.eventCount(run: "field-summarize-v2-v3") == 3)
    }
}
