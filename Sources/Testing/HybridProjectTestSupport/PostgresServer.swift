public import Foundation
#if canImport(Glibc)
import Glibc
import HybridTestSupport
#endif

/// A throwaway PostgreSQL server from Debian's `postgresql` package, for tests and benchmarks: `initdb` into a
/// temporary directory, `postgres` on 127.0.0.1 with trust authentication, one database per test.
///
/// PostgreSQL refuses to run as root, and tests in CI containers run as root: there the server's files belong to,
/// and its programs run as, the `postgres` user the package creates (or `nobody`), through `setpriv`. Durability
/// is switched off (`fsync=off`): the data lives as long as the test. `stop()` (or deinit) kills the server.
public final class PostgresServer: Sendable {
    /// The TCP port on 127.0.0.1.
    public let port: Int
    /// The data directory, socket and log live here; removed by `stop()`.
    public let directory: URL
    private let pid: Int32
    private let binaries: URL

    /// Where the server programs are: `HYBRID_PG_BIN`, else the newest `/usr/lib/postgresql/*/bin`.
    public static func binaryDirectory() throws -> URL {
        if let override = ProcessInfo.processInfo.environment["HYBRID_PG_BIN"] { return URL(fileURLWithPath: override) }
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        guard let newest = versions.last else {
            throw Failure("PostgreSQL is not installed (no \(root)/*/bin); `make deps` installs Debian's postgresql")
        }
        return URL(fileURLWithPath: "\(root)/\(newest)/bin")
    }

    /// Initializes a cluster and starts the server; throws with the server's log when it does not come up.
    public static func start() async throws -> PostgresServer {
        let binaries = try binaryDirectory()
        let account = try Account.forServer()
        let directory = URL(fileURLWithPath: "/tmp/hybrid-postgres-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try account.own(directory)
        let initdb = try await ChildProcess.run(
            account.launcher,
            account.prefix + [binaries.appendingPathComponent("initdb").path, "-D", directory.appendingPathComponent("data").path,
                              "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"])
        guard initdb.status == 0 else {
            try? FileManager.default.removeItem(at: directory)
            throw Failure("initdb failed (\(initdb.status)): \(initdb.stderr)")
        }
        var lastError: any Error = Failure("no attempt")
        // The free port is released before postgres binds it; another process may take it in between.
        for _ in 0..<3 {
            do {
                return try await launch(binaries: binaries, account: account, directory: directory)
            } catch {
                lastError = error
            }
        }
        try? FileManager.default.removeItem(at: directory)
        throw lastError
    }

    private init(port: Int, directory: URL, pid: Int32, binaries: URL) {
        self.port = port
        self.directory = directory
        self.pid = pid
        self.binaries = binaries
    }

    private static func launch(binaries: URL, account: Account, directory: URL) async throws -> PostgresServer {
        let port = SocketFixtures.closedPort()
        let process = Process()
        process.executableURL = account.launcher
        process.arguments = account.prefix + [
            binaries.appendingPathComponent("postgres").path, "-D", directory.appendingPathComponent("data").path,
            "-h", "127.0.0.1", "-p", "\(port)", "-k", directory.path,
            "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=200",
        ]
        let log = directory.appendingPathComponent("server.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        try? handle.close()
        let server = PostgresServer(port: port, directory: directory, pid: process.processIdentifier, binaries: binaries)
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if !process.isRunning { break }
            let ready = try await ChildProcess.run(
                binaries.appendingPathComponent("pg_isready"), ["-q", "-h", "127.0.0.1", "-p", "\(port)"])
            if ready.status == 0 { return server }
            try await Task.sleep(for: .milliseconds(100))
        }
        kill(process.processIdentifier, SIGKILL)
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        throw Failure("postgres did not start on 127.0.0.1:\(port): \(text.suffix(600))")
    }

    /// Creates a fresh database and returns its URL (`postgres://postgres@127.0.0.1:PORT/NAME?sslmode=disable`).
    public func createDatabase() async throws -> String {
        let name = "hybrid_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        let outcome = try await ChildProcess.run(
            binaries.appendingPathComponent("createdb"), ["-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", name])
        guard outcome.status == 0 else { throw Failure("createdb \(name) failed: \(outcome.stderr)") }
        return "postgres://postgres@127.0.0.1:\(port)/\(name)?sslmode=disable"
    }

    /// Drops the database a `createDatabase()` URL names, closing its sessions first.
    public func dropDatabase(_ url: String) async throws {
        guard let name = URLComponents(string: url)?.path.dropFirst(), !name.isEmpty else { return }
        let outcome = try await ChildProcess.run(
            binaries.appendingPathComponent("dropdb"), ["-f", "-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", String(name)])
        guard outcome.status == 0 else { throw Failure("dropdb \(name) failed: \(outcome.stderr)") }
    }

    /// Runs `body` with a fresh database's URL and drops the database afterwards, whatever happens.
    public func withDatabase<T>(_ body: (String) async throws -> T) async throws -> T {
        let url = try await createDatabase()
        do {
            let value = try await body(url)
            try? await dropDatabase(url)
            return value
        } catch {
            try? await dropDatabase(url)
            throw error
        }
    }

    /// Kills the server (SIGKILL; its backends exit when they see the postmaster gone) and removes its files.
    public func stop() {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        try? FileManager.default.removeItem(at: directory)
    }

    /// A failure to set up the server, with what the programs said.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
        /// A failure described by `description`.
        public init(_ description: String) { self.description = description }
    }

    /// Who the server runs as: the current user, or, as root, `postgres` (else `nobody`) through `setpriv`.
    private struct Account {
        var launcher: URL
        var prefix: [String]
        var uid: uid_t?
        var gid: gid_t?

        static func forServer() throws -> Account {
            guard getuid() == 0 else { return Account(launcher: URL(fileURLWithPath: "/usr/bin/env"), prefix: []) }
            guard let entry = getpwnam("postgres") ?? getpwnam("nobody") else {
                throw Failure("running as root and neither a postgres nor a nobody user exists to run the server as")
            }
            let uid = entry.pointee.pw_uid
            let gid = entry.pointee.pw_gid
            return Account(
                launcher: URL(fileURLWithPath: "/usr/bin/setpriv"),
                prefix: ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups"], uid: uid, gid: gid)
        }

        func own(_ directory: URL) throws {
            guard let uid, let gid else { return }
            guard chown(directory.path, uid, gid) == 0 else {
                throw Failure("cannot hand \(directory.path) to uid \(uid): \(String(cString: strerror(errno)))")
            }
        }
    }
}
