import Foundation
import HybridCore
import HybridPostgres
import HybridTesting
import Testing
import HybridProjectTestSupport

/// The libpq client under the shared store: the URL's `sslmode` reaches libpq, and failures name the server's reason.
@Suite("PostgreSQL client (libpq)", .postgresServer)
struct PostgresClientTests {
    @Test func sslmodeRequireIsEnforcedAndAPlainServerIsRefused() async throws {
        try await PostgresServerTrait.server().withDatabase { url in
            // The throwaway test server has no certificate: require must refuse it rather than fall back to plain TCP.
            let base = url.components(separatedBy: "?")[0]
            do {
                let database = try await PostgresDatabase(url: base + "?sslmode=require")
                database.close()
                Issue.record("sslmode=require connected to a server without TLS")
            } catch {
                #expect(String(describing: error).contains("SSL"), "\(error)")
                #expect(!String(describing: error).contains("password"), "\(error)")
            }
            // prefer (the default) connects, in plain TCP here.
            let preferred = try await PostgresDatabase(url: base)
            preferred.close()
        }
    }

    @Test func aWrongDatabaseNameIsACannotOpenErrorWithTheServersReason() async throws {
        try await PostgresServerTrait.server().withDatabase { url in
            let wrong = url.replacingOccurrences(of: #"/[^/?]+(\?|$)"#, with: "/no_such_database$1", options: .regularExpression)
            do {
                _ = try await PostgresDatabase(url: wrong)
                Issue.record("connected to a database that does not exist")
            } catch {
                #expect(String(describing: error).contains("no_such_database"), "\(error)")
            }
        }
    }
}
