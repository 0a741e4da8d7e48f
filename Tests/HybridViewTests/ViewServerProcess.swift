import Foundation
import HybridTestSupport

/// The real `hybrid view` binary as a child process on port 0, with the URL it printed. Stop it with ``stop()``
/// (SIGKILL: a child started from a libdispatch thread may have SIGTERM blocked).
struct ViewServerProcess {
    let pid: Int32
    /// The base URL the server printed, ending in `/`.
    let baseURL: String

    /// Starts `hybrid view --db PATH --port 0` in `directory` and waits (up to 60 s) for the line with its URL.
    static func start(database: String, in directory: URL) async throws -> ViewServerProcess {
        let executable = try HybridCLI.executable()
        return try await BlockingWork.run {
            let process = Process()
            process.executableURL = executable
            process.arguments = ["view", "--db", database, "--port", "0"]
            process.currentDirectoryURL = directory
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let pid = process.processIdentifier
            do {
                let url = try readURL(from: output.fileHandleForReading, pid: pid)
                return ViewServerProcess(pid: pid, baseURL: url)
            } catch {
                kill(pid, SIGKILL)
                throw error
            }
        }
    }

    /// Reads the child's output until a line carries `http://127.0.0.1:PORT/`; a watchdog kills a silent child.
    private static func readURL(from handle: FileHandle, pid: Int32) throws -> String {
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        defer { watchdog.cancel() }
        var text = ""
        while true {
            let chunk = handle.availableData
            guard !chunk.isEmpty else { throw StartFailed(description: "hybrid view exited before printing its URL: \(text)") }
            text += String(decoding: chunk, as: UTF8.self)
            if let match = text.firstMatch(of: /http:\/\/127\.0\.0\.1:[0-9]+\//) {
                return String(match.output)
            }
        }
    }

    struct StartFailed: Error, CustomStringConvertible { var description: String }

    /// `path` (with its query) on this server.
    func url(_ path: String) -> String {
        baseURL + path.drop { $0 == "/" }
    }

    func stop() {
        kill(pid, SIGKILL)
    }
}
