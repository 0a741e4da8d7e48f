import Foundation
import Glibc

/// Part of `hybrid-bench cli`: how long the real release `hybrid eval` takes from being spawned to its first request
/// reaching the stub over a large dataset (`--first-request-lines N`, default 200,000; `0` skips it). Issue #10's
/// target is 0.2 s at any dataset size: start-up, config, store, the dataset's line scan and the plan must not grow
/// with the file. Three runs (the CLI is killed once its first request arrived, so each costs well under a second),
/// printed with their median and the load average.
enum FirstRequestBenchmark {
    static let targetSeconds = 0.2

    static func run(_ arguments: BenchmarkArguments, hybrid: String, directory: URL) async throws {
        if arguments.string("first-request-lines") == "0" { return }
        let lines = arguments.int("first-request-lines", default: 200_000)
        let marker = directory.appendingPathComponent("first-request-large").path
        let server = try ChildServer.start(["--delay-ms", "0", "--first-request-file", marker])
        defer { server.kill() }
        let setup = try CLIBenchmark.Setup(directory: directory, port: server.port, samples: lines, streaming: false, concurrency: 32)
        var figures: [Double] = []
        for attempt in 0..<3 {
            try? FileManager.default.removeItem(atPath: marker)
            try? FileManager.default.removeItem(atPath: setup.database)
            guard let seconds = try await firstRequest(hybrid: hybrid, setup: setup, marker: marker, runID: "first-\(attempt)")
            else {
                print("  first request: none within 10 s over \(lines) lines: A RUN FAILED")
                return
            }
            figures.append(seconds)
        }
        let median = figures.median
        print(String(
            format: "  first request over %d lines: median %.0f ms (runs %@) | target %.0f ms: %@ | load %@", lines,
            median * 1000, figures.map { String(format: "%.0f", $0 * 1000) }.joined(separator: ", "), targetSeconds * 1000,
            median <= targetSeconds ? "OK" : "ABOVE", ResourceUsage.loadAverage()))
    }

    /// Seconds from spawning `hybrid eval` to the stub writing `marker`; nil when no request came within 10 s.
    private static func firstRequest(hybrid: String, setup: CLIBenchmark.Setup, marker: String, runID: String) async throws -> Double? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: hybrid)
        process.arguments = [
            "eval", "--config", setup.config, "--db", setup.database, "--feature", "summarize", "--dataset", setup.dataset,
            "--variants", "concise", "--concurrency", "32", "--run-id", runID,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let spawned = Date().timeIntervalSince1970
        try process.run()
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let deadline = spawned + 10
        while Date().timeIntervalSince1970 < deadline {
            if let text = try? String(contentsOfFile: marker, encoding: .utf8), let arrived = Double(text) {
                if arrived >= spawned { return arrived - spawned }
                // A request of the previous (killed) run reached the stub after the marker was removed.
                try? FileManager.default.removeItem(atPath: marker)
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        return nil
    }
}
