public import Foundation
import HybridTestSupport

/// Debian's `chromium` in headless mode (installed by `make setup`): dumps the DOM a page builds, or takes a
/// screenshot, so tests can check what a person would see. Each call gets its own profile directory and `HOME`
/// (Chromium writes both) and is killed with SIGKILL if it outlives two minutes.
public struct HeadlessChromium: Sendable {
    /// The browser binary.
    public let executable: String
    /// Where profiles and crash dumps go; the caller owns and removes it.
    public let workDirectory: URL

    /// The installed Chromium, working under `workDirectory`; throws when none is installed.
    public init(workDirectory: URL) throws {
        let candidates = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw ChromiumMissing()
        }
        executable = path
        self.workDirectory = workDirectory
    }

    /// The error when no browser is installed.
    public struct ChromiumMissing: Error, CustomStringConvertible {
        public var description: String { "chromium is not installed; `make setup` installs it (Debian package `chromium`)" }
    }

    /// What one browser run printed and how it ended.
    public struct Outcome: Sendable {
        /// The exit status.
        public var status: Int32
        /// Standard output (the DOM, for `--dump-dom`).
        public var stdout: String
    }

    /// The serialized DOM of `url` after the page loaded.
    public func dumpDOM(_ url: String) async throws -> String {
        try await run(["--dump-dom", url]).stdout
    }

    /// Screenshots `url` at `width`×`height` into the PNG file `file`; returns the browser's exit status.
    public func screenshot(_ url: String, to file: URL, width: Int = 1280, height: Int = 2000) async throws -> Int32 {
        try await run(["--screenshot=\(file.path)", "--window-size=\(width),\(height)", url]).status
    }

    /// Runs the browser headless with `arguments` after the common flags.
    public func run(_ arguments: [String]) async throws -> Outcome {
        let common = [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--user-data-dir=\(workDirectory.appendingPathComponent("chromium-profile-\(UUID().uuidString)").path)",
        ]
        let executable = executable
        let home = workDirectory
        return try await BlockingWork.run { try Self.runBlocking(executable, common + arguments, home: home) }
    }

    private static func runBlocking(_ executable: String, _ arguments: [String], home: URL) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path  // chromium writes its profile and crash dumps under HOME
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        defer {
            watchdog.cancel()
            if process.isRunning { kill(pid, SIGKILL) }
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, stdout: String(decoding: data, as: UTF8.self))
    }
}
