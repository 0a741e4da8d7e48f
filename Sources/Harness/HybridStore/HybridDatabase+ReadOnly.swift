import Foundation
import GRDB

extension HybridDatabase {
    /// Opens an existing database file for reading only: nothing is created, migrated or written, so a viewer can
    /// look at a store that a run is still writing (WAL readers never block the writer) or that sits on a read-only
    /// disk.
    ///
    /// - Throws: `StoreError.cannotOpen` when the file is missing, not a SQLite database, or has an older schema
    ///   than this build reads (open it once with a command that writes, such as `hybrid report RUN`, to upgrade
    ///   it); `.schemaTooNew` when a newer build wrote it.
    public static func openReadOnly(path: String) throws(StoreError) -> HybridDatabase {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError.cannotOpen(path: path, reason: "no such file (run `hybrid eval` first, or pass --db PATH)")
        }
        var configuration = configuration()
        configuration.readonly = true
        let reader: DatabasePool
        do {
            reader = try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw StoreError.cannotOpen(path: path, reason: describe(error))
        }
        try checkSchema(reader, path: path)
        return HybridDatabase(path: path, openedWriter: reader)
    }

    /// A read-only connection cannot migrate, so the file must already have exactly the migrations this build knows.
    private static func checkSchema(_ reader: DatabasePool, path: String) throws(StoreError) {
        let applied = try appliedMigrations(reader, path: path)
        if applied != Set(migrator.migrations) {
            throw StoreError.cannotOpen(
                path: path,
                reason: "schema version \(applied.count) is older than this build's (\(knownSchemaVersion)) and a read-only "
                    + "opening cannot upgrade it; run `hybrid report RUN` on it once to upgrade")
        }
    }
}
