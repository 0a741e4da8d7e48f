public import Foundation
public import HybridStore
import HybridTransport

/// A `postgres://user:password@host:port/database?sslmode=…` URL, parsed once.
///
/// The password comes from the URL or, when the URL has none, from `PGPASSWORD` (as `psql` does). Only
/// `redacted` may appear in errors, logs or reports: the URL without its user, password and query.
public struct PostgresConnectionURL: Sendable, CustomStringConvertible {
    /// How the connection uses TLS (`sslmode`): `disable`, `prefer` (the default) or `require`.
    public enum TLSMode: String, Sendable {
        /// Plain TCP (loopback, a private network).
        case disable
        /// TLS when the server offers it.
        case prefer
        /// TLS or no connection.
        case require
    }

    /// Host name or address.
    public var host: String
    /// TCP port (5432 when the URL has none).
    public var port: Int
    /// Role to connect as.
    public var username: String
    /// From the URL or `PGPASSWORD`; never printed.
    public var password: String?
    /// Database name.
    public var database: String
    /// `sslmode` from the query string.
    public var tls: TLSMode
    /// The URL without user, password or query (`URLRedaction`): the only form errors may show.
    public let redacted: String

    /// True for `postgres://` and `postgresql://` URLs: what `--db` and `HYBRID_DB_URL` use to pick the backend.
    public static func isPostgres(_ location: String) -> Bool {
        location.hasPrefix("postgres://") || location.hasPrefix("postgresql://")
    }

    /// Parses `text`; `environment` supplies `PGPASSWORD` when the URL carries no password.
    public init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(StoreError) {
        let redacted = URLRedaction.redact(text)
        guard Self.isPostgres(text), let components = URLComponents(string: text), let host = components.host, !host.isEmpty
        else {
            throw StoreError.cannotOpen(path: redacted, reason: "not a postgres://user@host:port/database URL")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty else {
            throw StoreError.cannotOpen(path: redacted, reason: "the URL names no database (postgres://user@host:port/DATABASE)")
        }
        let mode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "prefer"
        guard let tls = TLSMode(rawValue: mode) else {
            throw StoreError.cannotOpen(path: redacted, reason: "sslmode=\(mode) is not one of disable, prefer, require")
        }
        self.host = host
        self.port = components.port ?? 5432
        self.username = components.user.flatMap { $0.removingPercentEncoding } ?? "postgres"
        self.password = components.password.flatMap { $0.removingPercentEncoding } ?? environment["PGPASSWORD"]
        self.database = database
        self.tls = tls
        self.redacted = redacted
    }

    public var description: String { redacted }
}
