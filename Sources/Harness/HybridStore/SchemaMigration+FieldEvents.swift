extension SchemaMigration {
    /// Field runs (issue 14): router events uploaded by apps, one run per (feature, config version) with
    /// `runs.kind = 'field'`, one `field_events` row per event id, so a re-sent batch is ignored row by row.
    /// PostgreSQL records this version without tables and gets them in `v9` (`v9Postgres`).
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

extension SchemaMigration {
    /// Field events clustered by (run, install, time, id) instead of by id with a second index on the run. An
    /// upload is one install's events, oldest first (`HTTPBatchEventUploader`, `JSONLinesEventSink`), so a batch
    /// appends to a few pages at the end of its install's range, where a random event id as the key dirtied about
    /// one 4 KiB page per event in each of two B-trees (measured: 12 KiB written per event, 14,000 events/s in
    /// `hybrid-bench ingest`). A re-sent event repeats its id with its feature, config version, install and time,
    /// so it lands on its stored copy and is ignored. A field report reads one run as one range of the key.
    static let v5SQLite = """
            CREATE TABLE field_events_v5 (
                run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
                install_id TEXT NOT NULL,
                occurred_at_ms INTEGER NOT NULL,
                event_id TEXT NOT NULL,
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
                labels_json TEXT NOT NULL DEFAULT '{}',
                PRIMARY KEY (run_id, install_id, occurred_at_ms, event_id)
            ) STRICT, WITHOUT ROWID;
            INSERT INTO field_events_v5 (run_id, install_id, occurred_at_ms, event_id, rollout_arm, bucket, variant,
                served_by, served_tier, outcome, error_kind, attempt_count, fallback, ttft_ms, latency_ms, input_tokens,
                output_tokens, tokens_estimated, cost_usd, checks_total, checks_failed, cache_hit, labels_json)
            SELECT run_id, install_id, occurred_at_ms, event_id, rollout_arm, bucket, variant, served_by, served_tier,
                outcome, error_kind, attempt_count, fallback, ttft_ms, latency_ms, input_tokens, output_tokens,
                tokens_estimated, cost_usd, checks_total, checks_failed, cache_hit, labels_json
            FROM field_events;
            DROP TABLE field_events;
            ALTER TABLE field_events_v5 RENAME TO field_events;
            """
}

extension SchemaMigration {
    /// Field runs on PostgreSQL: `runs.kind` as in SQLite's `v4`, and `field_events` with the same columns as
    /// SQLite's `v5` in native types. Keyed by the event id alone, so a re-sent event is a duplicate whatever else
    /// it carries (`ON CONFLICT DO NOTHING`), with an index on (run, event id in byte order, as SQLite sorts) for a report's ordered read: a
    /// PostgreSQL heap is not clustered by its key, so SQLite's append-friendly composite key would buy nothing.
    static let v9Postgres = """
            ALTER TABLE runs ADD COLUMN kind TEXT NOT NULL DEFAULT 'eval';
            CREATE TABLE field_events (
                event_id TEXT NOT NULL PRIMARY KEY,
                run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
                install_id TEXT NOT NULL,
                occurred_at_ms BIGINT NOT NULL,
                rollout_arm TEXT,
                bucket BIGINT,
                variant TEXT NOT NULL,
                served_by TEXT,
                served_tier TEXT,
                outcome TEXT NOT NULL,
                error_kind TEXT,
                attempt_count BIGINT NOT NULL CHECK (attempt_count >= 0),
                fallback BOOLEAN NOT NULL,
                ttft_ms DOUBLE PRECISION,
                latency_ms DOUBLE PRECISION NOT NULL,
                input_tokens BIGINT NOT NULL,
                output_tokens BIGINT NOT NULL,
                tokens_estimated BOOLEAN NOT NULL,
                cost_usd DOUBLE PRECISION NOT NULL,
                checks_total BIGINT NOT NULL,
                checks_failed TEXT NOT NULL DEFAULT '',
                cache_hit BOOLEAN NOT NULL,
                labels_json TEXT NOT NULL DEFAULT '{}'
            );
            CREATE INDEX field_events_by_run ON field_events (run_id, event_id COLLATE "C");
            CREATE INDEX runs_by_kind ON runs (kind);
            """
}
