import Foundation
import HybridTestSupport
import HybridProjectTestSupport

/// The real `hybrid view` binary as a child process on port 0, with the URL it printed. Stop it with ``stop()``.
struct ViewServerProcess {
    let server: HybridCLI.Server
    /// The base URL the server printed, ending in `/`.
    var baseURL: String { server.url }
    var pid: Int32 { server.pid }

    /// Starts `hybrid view --db PATH --port 0` in `directory` and waits (up to 60 s) for the line with its URL.
    static func start(database: String, in directory: URL) async throws -> ViewServerProcess {
        ViewServerProcess(server: try await HybridCLI.startServer(["view", "--db", database, "--port", "0"], in: directory))
    }

    /// `path` (with its query) on this server.
    func url(_ path: String) -> String {
        baseURL + path.drop { $0 == "/" }
    }

    func stop() {
        server.stop()
    }
}
