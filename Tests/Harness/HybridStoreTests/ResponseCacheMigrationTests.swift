import Foundation
import GRDB
@testable import HybridStore
import HybridTestSupport
import Testing

/// Schema v6 rekeys the response cache (see `SchemaMigration+ResponseCache.swift`): entries stored before it must
/// still be found, replaced and kept apart by their whole hash.
@Suite struct ResponseCacheMigrationTests {
    @Test func entriesStoredBeforeTheV6RekeyAreFoundAndReplaced() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.url.appendingPathComponent("v5.sqlite").path
            let old = try DatabaseQueue(path: path)
            try HybridDatabase.migrator.migrate(old, upTo: "v5")
            try await old.write { db in
                try db.execute(sql: """
                    INSERT INTO response_cache (request_hash, model_id, text, structured_json, prompt_tokens,
                        completion_tokens, cached_tokens, reasoning_tokens, usage_estimated, ttft_ms, total_ms,
                        finish_reason, created_at)
                    VALUES ('h1', 'm', 'first', NULL, 10, 3, 0, 0, 0, 12.5, 40.25, 'stop', '2025-06-15 15:06:40.000'),
                        ('h2', 'm', 'second', '{"a":1}', 1, 2, 0, 0, 1, NULL, 5, NULL, '2025-06-15 15:06:40.000');
                    """)
            }
            try old.close()

            let store = try SQLiteResultStore(path: path)
            let first = try #require(try await store.cachedResponse(requestHash: "h1"))
            #expect(first.text == "first" && first.ttftMs == 12.5 && first.usage.promptTokens == 10)
            let second = try #require(try await store.cachedResponse(requestHash: "h2"))
            #expect(second.text == "second" && second.structured == ["a": 1] && second.usage.isEstimated)
            #expect(try await store.cachedResponse(requestHash: "h3") == nil)

            var replacement = first
            replacement.text = "newer"
            _ = try await store.insertResults([], caching: [replacement])
            #expect(try await store.cachedResponse(requestHash: "h1")?.text == "newer")
            #expect(try await store.cachedResponse(requestHash: "h2")?.text == "second")
        }
    }

    @Test func theKeyIsFixedAndTellsHashesApart() {
        // Stored keys must equal the ones a later process computes: FNV-1a, not Swift's seeded `Hasher`.
        #expect(CachedResponseRecord.requestKey("") == Int64(bitPattern: 0xcbf2_9ce4_8422_2325))
        #expect(CachedResponseRecord.requestKey("a") == Int64(bitPattern: 0xaf63_dc4c_8601_ec8c))
        #expect(CachedResponseRecord.requestKey("h1") != CachedResponseRecord.requestKey("h2"))
    }
}
