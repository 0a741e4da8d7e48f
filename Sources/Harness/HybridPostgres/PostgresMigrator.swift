import Foundation
import HybridCore
import HybridStore

/// Brings a PostgreSQL database to the newest schema version, from the list SQLite migrates through too
/// (`SchemaMigration.all`). Applied versions are recorded in `schema_migrations`.
///
/// Many workers start at once against a fresh database: the whole migration runs in one transaction behind a
/// transaction-scoped advisory lock, so exactly one of them creates the tables and the others see them done.
enum PostgresMigrator {
    /// Any constant both sides agree on; it only has to differ from other applications' advisory locks.
    private static let lockKey = 0x4879_6272_6964  // "Hybrid"

    static func migrate(_ database: PostgresDatabase) async throws(StoreError) {
        let location = database.location
        do {
            try await database.client.withTransaction(logger: PostgresDatabase.logger) { connection in
                let logger = PostgresDatabase.logger
                try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
                // libpq prints notices on stderr: "schema_migrations already exists, skipping" on every open
                // would reach each command's output.
                try await connection.query("SET LOCAL client_min_messages = warning", logger: logger)
                try await connection.query(
                    "CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT NOT NULL PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
                    logger: logger)
                let applied = Set(
                    try await connection.query("SELECT version FROM schema_migrations", logger: logger)
                        .map { try $0.decode(String.self) })
                let known = Set(SchemaMigration.all.map(\.version))
                guard applied.isSubset(of: known) else {
                    throw StoreError.schemaTooNew(path: location, found: applied.count, known: known.count)
                }
                for migration in SchemaMigration.all where !applied.contains(migration.version) {
                    for statement in statements(migration.postgres) {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    try await connection.query(
                        "INSERT INTO schema_migrations (version) VALUES (\(migration.version))", logger: logger)
                }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.migrationFailed(path: location, reason: PostgresDatabase.describe(error))
        }
    }

    /// One migration's statements: a parameterised query (`PQexecParams`) takes one statement at a time. Comment lines go
    /// first, so a `;` inside a comment cannot split a statement.
    static func statements(_ sql: String) -> [String] {
        let code = sql.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("--") }
            .joined(separator: "\n")
        return code.split(separator: ";").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }
}
