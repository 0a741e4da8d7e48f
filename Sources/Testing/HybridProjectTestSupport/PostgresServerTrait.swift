public import Testing

/// `@Suite(.postgresServer)`: one throwaway PostgreSQL server (`PostgresServer`) for the whole suite, killed when
/// the suite ends; its tests read it from `PostgresServerTrait.current` and make a database each
/// (`server.withDatabase { url in … }`), which costs far less than a server each.
public struct PostgresServerTrait: SuiteTrait, TestScoping {
    /// The server of the suite running on this task; nil outside a suite with the trait.
    @TaskLocal public static var current: PostgresServer?

    /// Starts the server, runs the suite with it, and kills it whatever happens.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let server = try await PostgresServer.start()
        defer { server.stop() }
        try await Self.$current.withValue(server) { try await function() }
    }

    /// The suite's server; fails the test with a clear message when the suite lacks the trait.
    public static func server() throws -> PostgresServer {
        guard let current else { throw PostgresServer.Failure("this test needs @Suite(.postgresServer)") }
        return current
    }
}

extension Trait where Self == PostgresServerTrait {
    /// One PostgreSQL server for the suite; see `PostgresServerTrait`.
    public static var postgresServer: Self { Self() }
}
