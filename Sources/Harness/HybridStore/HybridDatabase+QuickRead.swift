import Foundation
import GRDB

extension HybridDatabase {
    /// One read-only connection for a single quick read, such as the last-known-good config at app launch; nil
    /// when the file is missing or was written by an older build (open it with `init(path:)`, which migrates).
    ///
    /// `init(path:)` opens a connection pool whose WAL set-up writes (and syncs) a transaction whenever the WAL
    /// file is missing, which it is after every clean close, and closing it checkpoints: several milliseconds of
    /// start-up spent on a read. This opens one `DatabaseQueue` instead: nothing is created, migrated or written.
    ///
    /// - Throws: `StoreError.cannotOpen` when the file is not a SQLite database, `.schemaTooNew` when a newer
    ///   build wrote it.
    public static func openForQuickRead(path: String) throws(StoreError) -> HybridDatabase? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var configuration = configuration()
        configuration.readonly = true
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw StoreError.cannotOpen(path: path, reason: describe(error))
        }
        guard try appliedMigrations(queue, path: path).count == migrator.migrations.count else { return nil }
        return HybridDatabase(path: path, openedWriter: queue)
    }
}
