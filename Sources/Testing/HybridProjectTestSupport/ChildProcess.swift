public import Foundation
import HybridTestSupport

/// Runs a program to completion with optional standard input and collects its output, off the cooperative pool.
public enum ChildProcess {
    /// What the program left behind.
    public struct Outcome: Sendable {
        /// The exit status.
        public var status: Int32
        /// Everything it wrote to standard output.
        public var stdout: String
        /// Everything it wrote to standard error.
        public var stderr: String
    }

    /// Runs `executable` with `arguments` in `directory`, writing `input` to its stdin (empty when nil, so a
    /// program reading stdin never waits on the test's own). The child is SIGKILLed if it is still running when
    /// this returns or throws. `input` is written before any output is read, so the child must read its input
    /// before it writes more than a pipe's buffer (64 KB) of output.
    public static func run(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, input: Data? = nil
    ) async throws -> Outcome {
        try await BlockingWork.run { try runBlocking(executable, arguments, directory, input ?? Data()) }
    }

    /// SIGPIPE's default action would kill the whole test process when a child stops reading its input early.
    private static let ignoreBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    private static func runBlocking(_ executable: URL, _ arguments: [String], _ directory: URL?, _ input: Data) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let stdin = Pipe()
        let stdout = Pipe()
        // stderr goes to a file so neither pipe can fill while the other is being read.
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let stderr = try FileHandle(forWritingTo: errorFile)
        defer { try? stderr.close() }
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let pid = process.processIdentifier
        defer { if process.isRunning { kill(pid, SIGKILL) } }
        Self.ignoreBrokenPipes
        // A child that exits before reading all of its input (say, python3 without the module it imports) makes the
        // write fail with EPIPE; its status and stderr then say why, which is what the caller needs to see.
        try? stdin.fileHandleForWriting.write(contentsOf: input)
        try? stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errors = FileManager.default.contents(atPath: errorFile.path) ?? Data()
        return Outcome(
            status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
            stderr: String(decoding: errors, as: UTF8.self))
    }
}
