import GRDB

extension HybridDatabase {
    /// The schema, one named migration per version (`v1`, `v2`, …). Migrations are append-only: never edit a
    /// shipped one, add the next. Tables are STRICT so a wrongly typed value fails loudly instead of being kept.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE runs (
                        id TEXT NOT NULL PRIMARY KEY,
                        features_json TEXT NOT NULL,
                        dataset_path TEXT NOT NULL,
                        dataset_hash TEXT NOT NULL,
                        config_version INTEGER,
                        config_hash TEXT,
                        started_at TEXT NOT NULL,
                        finished_at TEXT,
                        status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'interrupted')),
                        arguments_json TEXT NOT NULL,
                        planned_count INTEGER NOT NULL CHECK (planned_count >= 0),
                        skipped_invalid_lines INTEGER NOT NULL DEFAULT 0,
                        seed INTEGER NOT NULL
                    ) STRICT;
                    CREATE INDEX runs_by_started_at ON runs (started_at);

                    CREATE TABLE results (
                        id INTEGER PRIMARY KEY,
                        run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
                        case_id TEXT NOT NULL,
                        arm_id TEXT NOT NULL,
                        repeat_index INTEGER NOT NULL CHECK (repeat_index >= 0),
                        feature TEXT NOT NULL,
                        prompt_variant TEXT NOT NULL,
                        model_id TEXT NOT NULL,
                        tier TEXT NOT NULL,
                        rendered_prompt_hash TEXT NOT NULL,
                        rendered_prompt TEXT,
                        config_version INTEGER,
                        config_hash TEXT,
                        raw_output TEXT,
                        parsed_output_json TEXT,
                        prompt_tokens INTEGER,
                        completion_tokens INTEGER,
                        cached_tokens INTEGER,
                        reasoning_tokens INTEGER,
                        usage_estimated INTEGER,
                        ttft_ms REAL,
                        total_ms REAL NOT NULL,
                        decode_tokens_per_s REAL,
                        retry_backoff_ms REAL NOT NULL DEFAULT 0,
                        cold_start INTEGER NOT NULL DEFAULT 0,
                        cost_usd REAL,
                        constraints_json TEXT NOT NULL DEFAULT '[]',
                        constraints_passed INTEGER,
                        scores_json TEXT NOT NULL DEFAULT '[]',
                        error_kind TEXT,
                        error_message TEXT,
                        retries INTEGER NOT NULL DEFAULT 0,
                        cache_hit INTEGER NOT NULL DEFAULT 0,
                        completed_at TEXT NOT NULL,
                        UNIQUE (run_id, case_id, arm_id, repeat_index)
                    ) STRICT;
                    -- (run_id, rowid): a run's results in insertion order without a sort, for streaming reads.
                    CREATE INDEX results_by_run ON results (run_id);
                    CREATE INDEX results_by_run_arm ON results (run_id, arm_id);

                    CREATE TABLE response_cache (
                        request_hash TEXT NOT NULL PRIMARY KEY,
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
                    CREATE INDEX response_cache_by_model ON response_cache (model_id);

                    CREATE TABLE config_snapshots (
                        accepted_seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        source_url TEXT NOT NULL,
                        version INTEGER NOT NULL,
                        etag TEXT,
                        fetched_at TEXT NOT NULL,
                        raw_bytes BLOB NOT NULL,
                        signature BLOB,
                        content_hash TEXT,
                        UNIQUE (source_url, version)
                    ) STRICT;
                    CREATE INDEX config_snapshots_by_source ON config_snapshots (source_url);

                    CREATE TABLE spend (
                        model_id TEXT NOT NULL,
                        month TEXT NOT NULL,
                        usd REAL NOT NULL,
                        request_count INTEGER NOT NULL,
                        updated_at TEXT NOT NULL,
                        PRIMARY KEY (model_id, month)
                    ) STRICT, WITHOUT ROWID;
                    """
            )
        }
        // llama.cpp's own prompt and generation times beside the client's total, so queueing in the server shows.
        migrator.registerMigration("v2") { db in
            try db.execute(
                sql: """
                    ALTER TABLE results ADD COLUMN server_prompt_ms REAL;
                    ALTER TABLE results ADD COLUMN server_generation_ms REAL;
                    """
            )
        }
        // Field runs (issue 14): router events uploaded by apps, one run per (feature, config version). Named v4 so
        // it can sit after another branch's v3; renumber at merge if needed. Self-contained: a column on runs and
        // one table, keyed by the event's own id so a re-sent batch is ignored row by row.
        migrator.registerMigration("v4") { db in
            try db.execute(
                sql: """
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
            )
        }
        return migrator
    }()
}
