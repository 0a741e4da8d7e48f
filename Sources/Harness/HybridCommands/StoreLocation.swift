import ArgumentParser
import Foundation
import HybridConfig
import HybridCore
import HybridPostgres
import HybridStore
import HybridTransport

/// Where `--db` (or `HYBRID_DB_URL`) says the stores are: a SQLite file, the embedded default, or a shared
/// PostgreSQL database. Parsed once, before anything is opened, so a mistyped URL (`postgress://…`, `mysql://…`) is
/// a usage error instead of a new SQLite file named like the URL: only `.sqlite` ever opens a file.
enum StoreLocation: Equatable, Sendable {
    /// A SQLite file (created when missing).
    case sqlite(path: String)
    /// A PostgreSQL URL (`postgres://` or `postgresql://`), kept as given: the password may be in it.
    case postgres(url: String)

    /// What `--db` accepts, for the usage error.
    static let accepted =
        "a SQLite path (plain, file://PATH or sqlite://PATH) or postgres://USER@HOST:PORT/DATABASE (postgresql:// too)"

    /// Parses `text`: `postgres://`/`postgresql://` URLs, `file://PATH` and `sqlite://PATH`, or a plain path
    /// without `://`. Anything else names a backend this build does not have and is refused; the error names
    /// `source` (`--db` or `HYBRID_DB_URL`), so the user knows which to fix.
    init(parsing text: String, source: String = "--db") throws(ValidationError) {
        guard let separator = text.range(of: "://") else {
            guard !text.isEmpty else { throw ValidationError("\(source) is empty; give \(Self.accepted)") }
            self = .sqlite(path: text)
            return
        }
        let scheme = text[..<separator.lowerBound].lowercased()
        let rest = String(text[separator.upperBound...])
        switch scheme {
        case "postgres", "postgresql":
            self = .postgres(url: scheme + "://" + rest)
        case "file", "sqlite":
            guard !rest.isEmpty else {
                throw ValidationError("\(source) \(URLRedaction.redact(text)) names no file; give \(Self.accepted)")
            }
            self = .sqlite(path: rest)
        default:
            throw ValidationError(
                "\(source) \(URLRedaction.redact(text)): '\(scheme)://' is not a store this build knows; give \(Self.accepted)")
        }
    }

    /// The location as messages may show it: a URL without user, password or query.
    var shown: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let url): URLRedaction.redact(url)
        }
    }

    /// The result store here.
    func results() async throws -> any ResultStore {
        switch self {
        case .sqlite(let path): try SQLiteResultStore(path: path)
        case .postgres(let url): PostgresResultStore(database: try await PostgresPools.shared.database(url))
        }
    }

    /// The field event store here (`collect`, `ingest`, field reports and `recommend`).
    func fieldEvents() async throws -> any FieldEventStore {
        switch self {
        case .sqlite(let path): try SQLiteFieldEventStore(path: path)
        case .postgres(let url): PostgresFieldEventStore(database: try await PostgresPools.shared.database(url))
        }
    }

    /// The work queue `hybrid eval --worker` drains: PostgreSQL only, since workers run on many machines.
    func queue() async throws -> any WorkQueue {
        guard case .postgres(let url) = self else {
            throw CLIError("--worker needs a shared database: --db postgres://USER@HOST:PORT/DATABASE (or HYBRID_DB_URL); \(shown) is a SQLite file")
        }
        return PostgresResultStore(database: try await PostgresPools.shared.database(url))
    }

    /// The config snapshot store here, which is also the config loader's last-known-good cache.
    func snapshots() async throws -> any ConfigSnapshotStore & ConfigSnapshotCache {
        switch self {
        case .sqlite(let path): SQLiteConfigSnapshotStore(database: try HybridDatabase(path: path))
        case .postgres(let url): PostgresConfigSnapshotStore(database: try await PostgresPools.shared.database(url))
        }
    }

    /// The config loader's last-known-good cache here. A SQLite file is read at start-up through one raw
    /// read-only connection (`SQLiteConfigSnapshotCache`); the full database is opened only to save a new config.
    func configCache() async throws -> any ConfigSnapshotCache {
        switch self {
        case .sqlite(let path): SQLiteConfigSnapshotCache(path: path)
        case .postgres: try await snapshots()
        }
    }
}

/// The open PostgreSQL databases of this process, by URL, so commands that open several stores share one pool.
actor PostgresPools {
    static let shared = PostgresPools()
    private var open: [String: PostgresDatabase] = [:]

    func database(_ url: String) async throws -> PostgresDatabase {
        if let database = open[url] { return database }
        let database = try await PostgresDatabase(url: url)
        open[url] = database
        return database
    }
}
