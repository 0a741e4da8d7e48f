public import Foundation
import HybridTestSupport

extension HybridCLI {
    /// A `hybrid` command that serves until killed (`view`, `collect`), with the URL it printed.
    public struct Server: Sendable {
        /// The child's process id.
        public let pid: Int32
        /// The first `http://127.0.0.1:PORT/…` URL the child printed.
        public let url: String

        /// SIGKILL: a child started from a libdispatch thread may have SIGTERM blocked.
        public func stop() {
            kill(pid, SIGKILL)
        }
    }

    /// Starts `hybrid ARGUMENTS` in `directory` and waits (up to 60 s) for the line with its loopback URL; the
    /// child is killed when it exits or stays silent. Stop it with ``Server/stop()`` in a `defer`. `environment` is
    /// added to this process's environment for the child (e.g. a token variable).
    public static func startServer(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:]
    ) async throws -> Server {
        let executable = try executable()
        return try await BlockingWork.run {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            process.currentDirectoryURL = directory
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let pid = process.processIdentifier
            do {
                return Server(pid: pid, url: try readURL(from: output.fileHandleForReading, pid: pid, arguments: arguments))
            } catch {
                kill(pid, SIGKILL)
                throw error
            }
        }
    }

    private static func readURL(from handle: FileHandle, pid: Int32, arguments: [String]) throws -> String {
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        defer { watchdog.cancel() }
        var text = ""
        while true {
            let chunk = handle.availableData
            guard !chunk.isEmpty else {
                throw NotFound(description: "hybrid \(arguments.first ?? "") exited before printing its URL: \(text)")
            }
            text += String(decoding: chunk, as: UTF8.self)
            if let match = text.firstMatch(of: /http:\/\/127\.0\.0\.1:[0-9]+\/[^ \n]*/) {
                return String(match.output)
            }
        }
    }
}
