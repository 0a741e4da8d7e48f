/// Version 7: `result_measures`, one narrow row per result holding what aggregates read as one packed blob
/// (``PackedMeasures``), written beside the result in the same transaction and backfilled for stored results.
///
/// A report over a million results stepped each wide `results` row (its pages also hold prompts and outputs) plus
/// a `result_constraints` and a `result_scores` row with their names as text: about three million rows and thirty
/// column calls per result, most of the report's CPU. This table gives the same values in one short row.
extension SchemaMigration {
    static let v7SQLite = """
            CREATE TABLE result_measures (
                result_id INTEGER PRIMARY KEY REFERENCES results (id) ON DELETE CASCADE,
                run_id TEXT NOT NULL,
                packed BLOB NOT NULL
            ) STRICT;
            """
}
