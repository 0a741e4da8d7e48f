/// Version 7: `result_measures`, one narrow row per result holding what aggregates read as one packed blob
/// (``PackedMeasures``), written beside the result in the same transaction and backfilled for stored results.
///
/// A report over a million results stepped each wide `results` row (its pages also hold prompts and outputs) plus
/// a `result_constraints` and a `result_scores` row with their names as text: about three million rows and thirty
/// column calls per result, most of the report's CPU. This table gives the same values in one short row.
///
/// The packed row is derived data: the store never updates results, but a hand edit (or a test normalising timings)
/// may. Triggers delete a result's packed row when the result or one of its side rows changes, and a page missing
/// one is read from the columns and side tables, so an edit is never hidden behind a stale blob.
extension SchemaMigration {
    static let v7SQLite = """
            CREATE TABLE result_measures (
                result_id INTEGER PRIMARY KEY REFERENCES results (id) ON DELETE CASCADE,
                run_id TEXT NOT NULL,
                packed BLOB NOT NULL
            ) STRICT;
            CREATE TRIGGER result_measures_stale_on_result AFTER UPDATE ON results
            BEGIN DELETE FROM result_measures WHERE result_id IN (OLD.id, NEW.id); END;
            CREATE TRIGGER result_measures_stale_on_constraint AFTER UPDATE ON result_constraints
            BEGIN DELETE FROM result_measures WHERE result_id IN (OLD.result_id, NEW.result_id); END;
            CREATE TRIGGER result_measures_stale_on_constraint_delete AFTER DELETE ON result_constraints
            BEGIN DELETE FROM result_measures WHERE result_id = OLD.result_id; END;
            CREATE TRIGGER result_measures_stale_on_score AFTER UPDATE ON result_scores
            BEGIN DELETE FROM result_measures WHERE result_id IN (OLD.result_id, NEW.result_id); END;
            CREATE TRIGGER result_measures_stale_on_score_delete AFTER DELETE ON result_scores
            BEGIN DELETE FROM result_measures WHERE result_id = OLD.result_id; END;
            """
}
