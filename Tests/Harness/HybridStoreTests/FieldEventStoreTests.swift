import Foundation
import GRDB
@testable import HybridStore
import HybridTestSupport
import Testing

/// What only the SQLite field store has to do: keep events stored under the schema before `v5`. The contract both
/// backends share is `FieldEventStoreConformanceTests`.
@Suite struct FieldEventStoreTests {
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
            #expect(try await store.events(run: "field-summarize-v2-v3") == [Fixtures.fieldEvent("e1")])
            let again = try await store.insert([Fixtures.fieldEvent("e1"), Fixtures.fieldEvent("e2")])
            #expect(again.accepted == 1 && again.duplicates == 1)
        }
    }
}
