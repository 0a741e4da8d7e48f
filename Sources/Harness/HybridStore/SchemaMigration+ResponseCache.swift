import GRDB

/// Version 6: the response cache keyed by a 64-bit integer (`request_key`, ``CachedResponseRecord/requestKey(_:)``)
/// in a narrow unique index, its rows appended in insert order.
///
/// An eval stores one cache entry per sample in the same commit as its result. Keyed by the 64-character hash, the
/// primary-key index held about 55 entries per page and every commit wrote most of its pages again: at 20,000
/// samples that index was 42 % of the WAL frames a run wrote. An integer key holds several times more entries per
/// page, so a commit rewrites far fewer. Lookups still compare the whole hash, so two hashes sharing a key are two
/// misses, and storing one replaces the other: a cache may forget an entry.
extension SchemaMigration {
    static let v6SQLite = """
            CREATE TABLE response_cache_v6 (
                request_key INTEGER NOT NULL,
                request_hash TEXT NOT NULL,
                model_id TEXT NOT NULL,
                text TEXT NOT NULL,
                structured_json TEXT,
                prompt_tokens INTEGER NOT NULL,
                completion_tokens INTEGER NOT NULL,
                cached_tokens INTEGER NOT NULL,
                reasoning_tokens INTEGER NOT NULL,
                usage_estimated INTEGER NOT NULL,
                ttft_ms REAL,
                total_ms REAL NOT NULL,
                finish_reason TEXT,
                created_at TEXT NOT NULL
            ) STRICT;
        """

    /// Copies the v1 table's entries with their keys, then puts the new table in its place.
    ///
    /// The unique key index exists before the copy, so two old hashes sharing a key keep the newer entry (as a
    /// later store would) instead of failing the migration; the index follows the table through the rename.
    static func rekeyResponseCache(_ db: Database) throws {
        try db.execute(sql: "CREATE UNIQUE INDEX response_cache_by_key ON response_cache_v6 (request_key)")
        let copy = try RawStatement(db, sql: "INSERT OR REPLACE INTO response_cache_v6 SELECT ?, * FROM response_cache WHERE rowid = ?")
        let rows = try Row.fetchCursor(db, sql: "SELECT rowid, request_hash FROM response_cache ORDER BY rowid")
        while let row = try rows.next() {
            let hash: String = try row.decode(atIndex: 1)
            copy.bind(Int(CachedResponseRecord.requestKey(hash)), at: 1)
            copy.bind(try row.decode(atIndex: 0) as Int64, at: 2)
            try copy.run()
        }
        try db.execute(sql: """
            DROP TABLE response_cache;
            ALTER TABLE response_cache_v6 RENAME TO response_cache;
            CREATE INDEX response_cache_by_model ON response_cache (model_id);
            """)
    }
}
