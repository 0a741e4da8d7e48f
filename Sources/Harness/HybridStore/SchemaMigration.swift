import GRDB

/// One version of the store's schema, written once per backend, so SQLite and PostgreSQL move through the same
/// versions: `HybridDatabase`'s migrator registers `sqlite`, the PostgreSQL migrator (`HybridPostgres`) runs
/// `postgres`. Append-only: never edit a shipped version, add the next one with both dialects.
package struct SchemaMigration: Sendable {
    /// The version's name (`v1`, `v2`, …), recorded by both backends.
    package var version: String
    /// The SQLite statements (STRICT tables, so a wrongly typed value fails loudly instead of being kept).
    package var sqlite: String
    /// The PostgreSQL statements: the same tables with native types (TIMESTAMPTZ, BOOLEAN, BYTEA, identity keys).
    package var postgres: String
    /// Swift code run after `sqlite` in the same transaction, for data the SQL alone cannot move.
    var sqliteBackfill: (@Sendable (Database) throws -> Void)? = nil
}

extension SchemaMigration {
    /// Every version, oldest first.
    package static let all: [SchemaMigration] = [
        SchemaMigration(version: "v1", sqlite: v1SQLite, postgres: v1Postgres),
        // llama.cpp's own prompt and generation times beside the client's total, so queueing in the server shows.
        SchemaMigration(version: "v2", sqlite: v2SQLite, postgres: v2Postgres),
        // Constraint verdicts and score values as rows of narrow side tables, so aggregates (reports, compare,
        // recommend, the viewer) never parse JSON per result; the JSON columns keep messages and details. Old rows
        // are backfilled by the same Swift code that writes new ones, so the values are bit-identical. PostgreSQL
        // records the version without tables: its store answers `forEachMeasures` through the protocol's default
        // (whole rows), so side tables there would only be rows nothing reads.
        SchemaMigration(
            version: "v3", sqlite: v3SQLite, postgres: "-- side tables are SQLite-only (see above)",
            sqliteBackfill: { db in try ResultRecord.backfillSideTables(db) }),
        SchemaMigration(version: "v4", sqlite: v4SQLite, postgres: "-- field runs are SQLite-only (SQLiteFieldEventStore)"),
        // Field events keyed by (run, install, time, id), so an upload appends instead of writing a random page per event.
        SchemaMigration(version: "v5", sqlite: v5SQLite, postgres: "-- field runs are SQLite-only (SQLiteFieldEventStore)"),
        // The response cache under a 64-bit key in a narrow index, so a commit stops rewriting most of a wide one.
        SchemaMigration(
            version: "v6", sqlite: v6SQLite, postgres: "-- the cache's integer key is SQLite-only (its WAL cost)",
            sqliteBackfill: { db in try rekeyResponseCache(db) }),
        // A result's measures (counters, timings, verdicts, scores) packed in one narrow row, so a report steps one
        // short row per result instead of a wide one plus its side rows. PostgreSQL answers through the protocol's
        // default, as for `v3`.
        SchemaMigration(
            version: "v7", sqlite: v7SQLite, postgres: "-- packed measures are SQLite-only (see v3)",
            sqliteBackfill: { db in try PackedMeasures.backfill(db) }),
        // The config document a run ran under, once per content hash (`runs.config_hash`), so `rescore`,
        // `simulate --check-router` and `recommend` judge a run under its own config without being told.
        SchemaMigration(
            version: "v8",
            sqlite: "CREATE TABLE run_configs (config_hash TEXT PRIMARY KEY, body TEXT NOT NULL) STRICT, WITHOUT ROWID;",
            postgres: "CREATE TABLE run_configs (config_hash TEXT PRIMARY KEY, body TEXT NOT NULL);"),
        // Field runs on PostgreSQL (`PostgresFieldEventStore`), so collectors on several machines share them; SQLite
        // has had its tables since `v4`/`v5`.
        SchemaMigration(version: "v9", sqlite: "-- field runs: SQLite has them since v4 and v5", postgres: v9Postgres),
        // Each look of a field report, so its verdict is the running one (`FieldLook`).
        SchemaMigration(
            version: "v10",
            sqlite: "CREATE TABLE field_looks (run_id TEXT NOT NULL, events INTEGER NOT NULL, recorded_at TEXT NOT NULL, "
                + "body TEXT NOT NULL, PRIMARY KEY (run_id, events)) STRICT, WITHOUT ROWID;",
            postgres: "CREATE TABLE field_looks (run_id TEXT NOT NULL, events BIGINT NOT NULL, recorded_at TEXT NOT NULL, "
                + "body TEXT NOT NULL, PRIMARY KEY (run_id, events));"),
        // Whether a field event's request raced a second model (a hedge), for the field report's hedge lines.
        SchemaMigration(
            version: "v11",
            sqlite: "ALTER TABLE field_events ADD COLUMN hedged INTEGER NOT NULL DEFAULT 0;",
            postgres: "ALTER TABLE field_events ADD COLUMN hedged BOOLEAN NOT NULL DEFAULT FALSE;"),
        // Each feature's staged rollout (`hybrid rollout`), written under a revision so two processes never both act.
        SchemaMigration(
            version: "v12",
            sqlite: "CREATE TABLE rollouts (feature TEXT NOT NULL PRIMARY KEY, revision INTEGER NOT NULL, body TEXT NOT NULL) "
                + "STRICT, WITHOUT ROWID;",
            postgres: "CREATE TABLE rollouts (feature TEXT NOT NULL PRIMARY KEY, revision BIGINT NOT NULL, body TEXT NOT NULL);"),
        // Pairwise judgements of a run's arms (`eval`/`rescore --judge-mode pairwise`), one row per case and pair.
        SchemaMigration(
            version: "v13",
            sqlite: "CREATE TABLE pairwise_verdicts (run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE, "
                + "arm_id TEXT NOT NULL, baseline_arm_id TEXT NOT NULL, case_id TEXT NOT NULL, body TEXT NOT NULL, "
                + "PRIMARY KEY (run_id, arm_id, baseline_arm_id, case_id)) STRICT, WITHOUT ROWID;",
            postgres: "CREATE TABLE pairwise_verdicts (run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE, "
                + "arm_id TEXT NOT NULL, baseline_arm_id TEXT NOT NULL, case_id TEXT NOT NULL, body TEXT NOT NULL, "
                + "PRIMARY KEY (run_id, arm_id, baseline_arm_id, case_id));"),
        // Whether a field event's request called a model without prices (its cost then only a lower bound).
        SchemaMigration(
            version: "v14",
            sqlite: "ALTER TABLE field_events ADD COLUMN cost_unknown INTEGER NOT NULL DEFAULT 0;",
            postgres: "ALTER TABLE field_events ADD COLUMN cost_unknown BOOLEAN NOT NULL DEFAULT FALSE;"),
        // The feature's input rule that chose a field event's route (nil: its own route), for the report's per-rule rows.
        SchemaMigration(
            version: "v15",
            sqlite: "ALTER TABLE field_events ADD COLUMN input_rule TEXT;",
            postgres: "ALTER TABLE field_events ADD COLUMN input_rule TEXT;"),
    ]

    private static let v3SQLite = """
            CREATE TABLE result_constraints (
                result_id INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
                ordinal INTEGER NOT NULL,
                name TEXT NOT NULL,
                passed INTEGER NOT NULL,
                PRIMARY KEY (result_id, ordinal)
            ) STRICT, WITHOUT ROWID;
            CREATE TABLE result_scores (
                result_id INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
                ordinal INTEGER NOT NULL,
                scorer TEXT NOT NULL,
                value REAL NOT NULL,
                PRIMARY KEY (result_id, ordinal)
            ) STRICT, WITHOUT ROWID;
            """

    private static let v1SQLite = """
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

    /// PostgreSQL's first version also holds `work_claims`: the workers' queue, which SQLite (one process) never needs.
    private static let v1Postgres = """
            CREATE TABLE runs (
                id TEXT NOT NULL PRIMARY KEY,
                features_json TEXT NOT NULL,
                dataset_path TEXT NOT NULL,
                dataset_hash TEXT NOT NULL,
                config_version BIGINT,
                config_hash TEXT,
                started_at TIMESTAMPTZ NOT NULL,
                finished_at TIMESTAMPTZ,
                status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'interrupted')),
                arguments_json TEXT NOT NULL,
                planned_count BIGINT NOT NULL CHECK (planned_count >= 0),
                skipped_invalid_lines BIGINT NOT NULL DEFAULT 0,
                seed BIGINT NOT NULL
            );
            CREATE INDEX runs_by_started_at ON runs (started_at);

            CREATE TABLE results (
                id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
                case_id TEXT NOT NULL,
                arm_id TEXT NOT NULL,
                repeat_index BIGINT NOT NULL CHECK (repeat_index >= 0),
                feature TEXT NOT NULL,
                prompt_variant TEXT NOT NULL,
                model_id TEXT NOT NULL,
                tier TEXT NOT NULL,
                rendered_prompt_hash TEXT NOT NULL,
                rendered_prompt TEXT,
                config_version BIGINT,
                config_hash TEXT,
                raw_output TEXT,
                parsed_output_json TEXT,
                prompt_tokens BIGINT,
                completion_tokens BIGINT,
                cached_tokens BIGINT,
                reasoning_tokens BIGINT,
                usage_estimated BOOLEAN,
                ttft_ms DOUBLE PRECISION,
                total_ms DOUBLE PRECISION NOT NULL,
                decode_tokens_per_s DOUBLE PRECISION,
                retry_backoff_ms DOUBLE PRECISION NOT NULL DEFAULT 0,
                cold_start BOOLEAN NOT NULL DEFAULT FALSE,
                cost_usd DOUBLE PRECISION,
                constraints_json TEXT NOT NULL DEFAULT '[]',
                constraints_passed BOOLEAN,
                scores_json TEXT NOT NULL DEFAULT '[]',
                error_kind TEXT,
                error_message TEXT,
                retries BIGINT NOT NULL DEFAULT 0,
                cache_hit BOOLEAN NOT NULL DEFAULT FALSE,
                completed_at TIMESTAMPTZ NOT NULL,
                UNIQUE (run_id, case_id, arm_id, repeat_index)
            );
            CREATE INDEX results_by_run ON results (run_id, id);
            CREATE INDEX results_by_run_arm ON results (run_id, arm_id);

            CREATE TABLE response_cache (
                request_hash TEXT NOT NULL PRIMARY KEY,
                model_id TEXT NOT NULL,
                text TEXT NOT NULL,
                structured_json TEXT,
                prompt_tokens BIGINT NOT NULL,
                completion_tokens BIGINT NOT NULL,
                cached_tokens BIGINT NOT NULL,
                reasoning_tokens BIGINT NOT NULL,
                usage_estimated BOOLEAN NOT NULL,
                ttft_ms DOUBLE PRECISION,
                total_ms DOUBLE PRECISION NOT NULL,
                finish_reason TEXT,
                created_at TIMESTAMPTZ NOT NULL
            );
            CREATE INDEX response_cache_by_model ON response_cache (model_id);

            CREATE TABLE config_snapshots (
                accepted_seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                source_url TEXT NOT NULL,
                version BIGINT NOT NULL,
                etag TEXT,
                fetched_at TIMESTAMPTZ NOT NULL,
                raw_bytes BYTEA NOT NULL,
                signature BYTEA,
                content_hash TEXT,
                UNIQUE (source_url, version)
            );
            CREATE INDEX config_snapshots_by_source ON config_snapshots (source_url);

            CREATE TABLE spend (
                model_id TEXT NOT NULL,
                month TEXT NOT NULL,
                usd DOUBLE PRECISION NOT NULL,
                request_count BIGINT NOT NULL,
                updated_at TIMESTAMPTZ NOT NULL,
                PRIMARY KEY (model_id, month)
            );

            -- Workers only (PostgreSQL): one row per planned key not yet stored. A worker leases rows with
            -- FOR UPDATE SKIP LOCKED; storing a result deletes its row in the same transaction; a lease that
            -- expires (the worker died) makes the row claimable again.
            CREATE TABLE work_claims (
                run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
                case_id TEXT NOT NULL,
                arm_id TEXT NOT NULL,
                repeat_index BIGINT NOT NULL,
                seq BIGINT NOT NULL,
                worker_id TEXT,
                lease_expires_at TIMESTAMPTZ,
                PRIMARY KEY (run_id, case_id, arm_id, repeat_index)
            );
            CREATE INDEX work_claims_by_run ON work_claims (run_id, seq);
        """

    private static let v2SQLite = """
            ALTER TABLE results ADD COLUMN server_prompt_ms REAL;
            ALTER TABLE results ADD COLUMN server_generation_ms REAL;
        """

    private static let v2Postgres = """
            ALTER TABLE results ADD COLUMN server_prompt_ms DOUBLE PRECISION;
            ALTER TABLE results ADD COLUMN server_generation_ms DOUBLE PRECISION;
        """
}
