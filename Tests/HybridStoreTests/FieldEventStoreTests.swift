import Foundation
import GRDB
@testable import HybridStore
import HybridTestSupport
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

    @Test func eventsStoredBeforeTheV5RekeyAreKeptAndStillRecognisedWhenReSent() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.url.appendingPathComponent("v4.sqlite").path
            let old = try DatabaseQueue(path: path)
            try HybridDatabase.migrator.migrate(old, upTo: "v4")
            try await old.write { db in
                try db.execute(sql: """
                    INSERT INTO runs (id, features_json, dataset_path, dataset_hash, config_version, config_hash, started_at,
                        status, arguments_json, planned_count, seed, kind)
                    VALUES ('field-summarize-v2-v3', '["summarize-v2"]', 'field', '', 3, 'abc', '2026-11-22 00:00:00',
                        'running', '{"kind":"field"}', 0, 0, 'field');
                    INSERT INTO field_events (event_id, run_id, occurred_at_ms, install_id, rollout_arm, bucket, variant,
                        served_by, served_tier, outcome, error_kind, attempt_count, fallback, ttft_ms, latency_ms,
                        input_tokens, output_tokens, tokens_estimated, cost_usd, checks_total, checks_failed, cache_hit,
                        labels_json)
                    VALUES ('e1', 'field-summarize-v2-v3', 1700000000123, 'i1', 'b', 42, 'concise', 'cloud', 'third-party',
                        'served', NULL, 2, 1, 12.5, 80, 10, 20, 0, 0.0001, 2, 'json' || char(10) || 'maxWords', 0,
                        '{"app":"1.2","os":"iOS \\"18\\""}');
                    """)
            }
            try old.close()
            let store = try SQLiteFieldEventStore(path: path)
            #expect(try await store.events(run: "field-summarize-v2-v3") == [Self.event("e1")])
            let again = try await store.insert([Self.event("e1"), Self.event("e2")])
            #expect(again.accepted == 1 && again.duplicates == 1)
        }
    }

    @Test func aReSentEventIsFoundWhateverElseArrivedMeanwhile() async throws {
        let store = SQLiteFieldEventStore(database: try HybridDatabase.inMemory())
        let first = (0..<50).map { Self.event("a\($0)", install: "i\($0 % 3)") }
        try await store.insert(first)
        try await store.insert((0..<50).map { Self.event("b\($0)", install: "i\($0 % 4)") })
        let again = try await store.insert(first.reversed())
        #expect(again.accepted == 0 && again.duplicates == 50)
        #expect(try await store.eventCount(run: "field-summarize-v2-v3") == 100)
    }
}
