import Dispatch
public import Foundation
import HybridTestSupport
import Synchronization

/// Runs the `hybrid` executable that `swift build --build-tests` put in `.build/debug`, as users and CI do, and
/// captures what it prints (stdout and stderr together).
public enum HybridCLI {
    /// What one command did.
    public struct Outcome: Sendable {
        /// The exit status.
        public var status: Int32
        /// Standard output and standard error, interleaved.
        public var output: String
    }

    /// Why the executable could not be found.
    public struct NotFound: Error, CustomStringConvertible {
        /// The paths tried.
        public var description: String
    }

    /// The executable `name` (`hybrid`, or `hybrid-otlp` with the OTLP exporter): beside the running test bundle (a
    /// few levels up) or under the package's `.build/debug`.
    public static func executable(_ name: String = "hybrid", packageRoot: URL? = nil) throws -> URL {
        var candidates: [URL] = []
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(directory.appendingPathComponent(name))
            directory = directory.deletingLastPathComponent()
        }
        let root = packageRoot ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        candidates.append(root.appendingPathComponent(".build/debug/\(name)"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) && !$0.hasDirectoryPath }) else {
            throw NotFound(description: "\(name) not found in \(candidates.map(\.path)); run `swift build --build-tests`")
        }
        return found
    }

    /// Runs `hybrid ARGUMENTS` in `directory` to its end, off the cooperative pool; the child is SIGKILLed if
    /// reading its output fails, after `killAfter` when given (as `kill -9` would), and as soon as `killWhen` holds
    /// (polled every 10 ms): a test that kills the child at a known point waits for that point, not for a guess.
    /// `environment` is added to this process's environment for the child (a key variable a config names), so no
    /// test sets variables in its own process, which tests running in parallel would share. `executable` runs
    /// another executable (`hybrid-otlp`, ``executable(_:packageRoot:)``).
    public static func run(
        _ arguments: [String], in directory: URL, packageRoot: URL? = nil, killAfter: Duration? = nil,
        killWhen: (@Sendable () -> Bool)? = nil, environment: [String: String] = [:], executable: URL? = nil
    ) async throws -> Outcome {
        let executable = try executable ?? Self.executable(packageRoot: packageRoot)
        return try await BlockingWork.run {
            try runBlocking(executable, arguments, in: directory, killAfter: killAfter, killWhen: killWhen, environment: environment)
        }
    }

    private static func runBlocking(
        _ executable: URL, _ arguments: [String], in directory: URL, killAfter: Duration?, killWhen: (@Sendable () -> Bool)?,
        environment: [String: String]
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.currentDirectoryURL = directory
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
        let exited = Mutex(false)
        if let killWhen {
            DispatchQueue.global().async {
                while !exited.withLock({ $0 }) {
                    if killWhen() {
                        exited.withLock { if !$0 { kill(pid, SIGKILL) } }
                        return
                    }
                    usleep(10_000)
                }
            }
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        exited.withLock { $0 = true }
        killer?.cancel()
        return Outcome(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }
}
