import Foundation
public import HybridStore
import Logging

/// A PostgreSQL database holding the HybridAI schema: the shared store that many processes (CI jobs, workers,
/// people's machines) write to and read from at once.
///
/// Opening connects a pooled client (Debian's libpq: `PostgresClient`, no second TLS stack to build) and migrates
/// the schema (`PostgresMigrator`) to the newest version this build knows. Every store over it (`PostgresResultStore`, `PostgresConfigSnapshotStore`, `PostgresSpendLedger`,
/// `PostgresFieldEventStore`) shares the pool. Call `close()` when done; the pool's connections close with it.
public final class PostgresDatabase: Sendable {
    /// The URL with its password redacted: what every error names.
    public let location: String
    let client: PostgresClient
    static let logger = Logger(label: "hybrid.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Connects to `url` and migrates the schema.
    ///
    /// - Throws: `StoreError.cannotOpen` for a malformed URL or a server that cannot be reached,
    ///   `.schemaTooNew` when a newer build migrated the database, `.migrationFailed` when a migration fails.
    public init(url: PostgresConnectionURL, maximumConnections: Int = 8) async throws(StoreError) {
        location = url.redacted
        var parameters = [
            ("host", url.host), ("port", String(url.port)), ("user", url.username), ("dbname", url.database),
            ("sslmode", url.tls.rawValue), ("connect_timeout", "10"), ("application_name", "hybrid"),
            // Timestamps come back in UTC, the form `PostgresTimestamp` reads.
            ("options", "-c TimeZone=UTC"),
        ]
        if let password = url.password { parameters.append(("password", password)) }
        client = PostgresClient(parameters: parameters, maximumConnections: maximumConnections)
        do {
            // Connect once now, so a wrong URL or a server that is down fails here with libpq's reason.
            try await client.query("SELECT 1", logger: Self.logger)
        } catch {
            close()
            throw StoreError.cannotOpen(path: location, reason: Self.describe(error))
        }
        do {
            try await PostgresMigrator.migrate(self)
        } catch {
            close()
            throw error
        }
    }

    /// Parses `url` (see `PostgresConnectionURL`) and connects.
    public convenience init(url: String) async throws(StoreError) {
        try await self.init(url: try PostgresConnectionURL(url))
    }

    /// Closes the pool: queries after this fail.
    public func close() {
        client.close()
    }

    // MARK: - Running statements

    /// Runs statements with no bound values (tests hand-edit rows with it).
    func execute(_ sql: String) async throws(StoreError) {
        try await rows("execute SQL", PostgresQuery(unsafeSQL: sql))
    }

    /// The first column of each row as text (tests read raw columns with it).
    func texts(_ sql: String) async throws -> [String] {
        try await rows("read SQL", PostgresQuery(unsafeSQL: sql)).map { try $0.decode(String.self) }
    }

    /// Runs `query` and collects its rows; any failure becomes `StoreError.operationFailed` naming `operation`.
    @discardableResult
    func rows(_ operation: String, _ query: PostgresQuery) async throws(StoreError) -> [PostgresRow] {
        do {
            return try await client.query(query, logger: Self.logger)
        } catch {
            throw storeError(error, operation: operation)
        }
    }

    /// Runs `body` in one transaction (committed when it returns, rolled back when it throws). A `StoreError`
    /// thrown by `body` comes out unchanged; anything else becomes `.operationFailed`.
    func transaction<T: Sendable>(
        _ operation: String, _ body: (PostgresConnection) async throws -> T
    ) async throws(StoreError) -> T {
        do {
            return try await client.withTransaction(logger: Self.logger) { connection in try await body(connection) }
        } catch let error as StoreError {
            throw error
        } catch {
            throw storeError(error, operation: operation)
        }
    }

    /// A `StoreError` naming the redacted URL and the server's own message (never the statement's values).
    func storeError(_ error: any Error, operation: String) -> StoreError {
        if let error = error as? StoreError { return error }
        if error is CancellationError { return .cancelled(path: location, operation: operation) }
        return .operationFailed(path: location, operation: operation, reason: Self.describe(error))
    }

    /// The server's message and SQLSTATE when there is one.
    static func describe(_ error: any Error) -> String {
        String(describing: error)
    }

    /// The SQLSTATE of a server error (e.g. `23505` unique violation), or nil.
    static func sqlState(_ error: any Error) -> String? {
        (error as? PSQLError)?.sqlState
    }
}

extension Date {
    /// This date at the store's precision (milliseconds), so both backends read back the same value.
    var storedPrecision: Date {
        Date(timeIntervalSince1970: (timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}
