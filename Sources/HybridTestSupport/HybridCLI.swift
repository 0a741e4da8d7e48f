import Dispatch
public import Foundation

/// Runs the `hybrid` executable that `swift build --build-tests` put beside the test bundle, as a user would: a
/// child process with its exit status and its stdout and stderr interleaved in one string.
public enum HybridCLI {
    /// How one invocation ended.
    public struct Outcome: Sendable {
        /// The exit status (or the signal number when killed).
        public var status: Int32
        /// Standard output and standard error, interleaved as written.
        public var output: String
    }

    /// Why the executable was not found.
    public struct NotFound: Error, CustomStringConvertible {
        /// Where it was looked for.
        public var description: String
    }

    /// The `hybrid` executable next to the test bundle, else in the package's `.build/debug`.
    public static func executable() throws -> URL {
        var candidates: [URL] = []
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(directory.appendingPathComponent("hybrid"))
            directory = directory.deletingLastPathComponent()
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/hybrid"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) && !$0.hasDirectoryPath }) else {
            throw NotFound(description: "hybrid not found in \(candidates.map(\.path)); run `swift build --build-tests`")
        }
        return found
    }

    /// Runs `hybrid ARGUMENTS` in `directory` (the current one when nil) and waits for it off the cooperative pool.
    /// With `killAfter` the process gets SIGKILL after that long, as `kill -9` would.
    public static func run(_ arguments: [String], in directory: URL? = nil, killAfter: Duration? = nil) async throws -> Outcome {
        let executable = try executable()
        return try await BlockingWork.run { try runBlocking(executable, arguments, in: directory, killAfter: killAfter) }
    }

    private static func runBlocking(_ executable: URL, _ arguments: [String], in directory: URL?, killAfter: Duration?) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let pid = process.processIdentifier
        defer { if process.isRunning { kill(pid, SIGKILL) } }
        let killer = killAfter.map { delay in
            let item = DispatchWorkItem { kill(pid, SIGKILL) }
            let (seconds, attoseconds) = delay.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: item)
            return item
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        killer?.cancel()
        return Outcome(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }
}
