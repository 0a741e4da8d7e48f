import GRDB

extension HybridDatabase {
    /// The schema, one named migration per version of `SchemaMigration.all` (shared with the PostgreSQL store).
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        for migration in SchemaMigration.all {
            migrator.registerMigration(migration.version) { db in
                try db.execute(sql: migration.sqlite)
                try migration.sqliteBackfill?(db)
            }
        }
        return migrator
    }()
}
