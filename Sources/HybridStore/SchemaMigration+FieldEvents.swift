extension SchemaMigration {
    /// Field runs (issue 14): router events uploaded by apps, one run per (feature, config version) with
    /// `runs.kind = 'field'`, one `field_events` row per event id, so a re-sent batch is ignored row by row.
    /// SQLite only: `SQLiteFieldEventStore` is the one field store (PostgreSQL records the version without tables).
    static let v4SQLite = """
            ALTER TABLE runs ADD COLUMN kind TEXT NOT NULL DEFAULT 'eval';
            CREATE TABLE field_events (
                event_id TEXT NOT NULL PRIMARY KEY,
                run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
                occurred_at_ms INTEGER NOT NULL,
                install_id TEXT NOT NULL,
                rollout_arm TEXT,
                bucket INTEGER,
                variant TEXT NOT NULL,
                served_by TEXT,
                served_tier TEXT,
                outcome TEXT NOT NULL,
                error_kind TEXT,
                attempt_count INTEGER NOT NULL CHECK (attempt_count >= 0),
                fallback INTEGER NOT NULL,
                ttft_ms REAL,
                latency_ms REAL NOT NULL,
                input_tokens INTEGER NOT NULL,
                output_tokens INTEGER NOT NULL,
                tokens_estimated INTEGER NOT NULL,
                cost_usd REAL NOT NULL,
                checks_total INTEGER NOT NULL,
                checks_failed TEXT NOT NULL DEFAULT '',
                cache_hit INTEGER NOT NULL,
                labels_json TEXT NOT NULL DEFAULT '{}'
            ) STRICT, WITHOUT ROWID;
            CREATE INDEX field_events_by_run ON field_events (run_id);
            """
}
