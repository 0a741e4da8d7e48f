import Foundation
import HybridCore
import HybridPostgres
import HybridStore
import HybridTestSupport
import HybridProjectTestSupport

/// `hybrid-bench workers [--samples 2000] [--workers 4] [--concurrency 4] [--delay-ms 20]`: the release `hybrid eval
/// --worker` filling one run in a shared PostgreSQL store (a throwaway server from Debian's package), one worker
/// process against N at once, on the out-of-process stub with a 20 ms delay. Each worker keeps the same number of
/// requests in flight, so N workers should approach N× the throughput of one. Prints both rates, the speed-up
/// (target ≥ 3× with four workers) and whether every key was stored exactly once.
enum WorkersBenchmark {
    static let speedUpTarget = 3.0

    static func run(_ arguments: BenchmarkArguments) async throws {
        let samples = arguments.int("samples", default: 2000)
        let workers = arguments.int("workers", default: 4)
        let concurrency = arguments.int("concurrency", default: 4)
        let delay = arguments.int("delay-ms", default: 20)
        let hybrid = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("hybrid").path
        guard FileManager.default.isExecutableFile(atPath: hybrid) else {
            print("workers: \(hybrid) is missing; build it: swift build -c release --product hybrid")
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-bench-workers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let postgres = try await PostgresServer.start()
        defer { postgres.stop() }
        let server = try ChildServer.start(["--delay-ms", "\(delay)"])
        defer { server.kill() }
        let setup = try CLIBenchmark.Setup(
            directory: directory, port: server.port, samples: samples, streaming: false, concurrency: concurrency)
        print("workers: release `hybrid eval --worker` on a shared PostgreSQL store, \(samples) samples, stub delay \(delay) ms, concurrency \(concurrency) per worker")
        let one = try await measure(hybrid: hybrid, setup: setup, postgres: postgres, workers: 1, concurrency: concurrency, samples: samples)
        let many = try await measure(hybrid: hybrid, setup: setup, postgres: postgres, workers: workers, concurrency: concurrency, samples: samples)
        let speedUp = one.seconds > 0 ? one.seconds / many.seconds : 0
        for (count, result) in [(1, one), (workers, many)] {
            print(String(
                format: "  %d worker%@ %6.2f s %6.0f samples/s | %@", count, count == 1 ? " " : "s", result.seconds,
                Double(samples) / result.seconds, result.verdict))
        }
        print(String(format: "  speed-up %.2f× with %d workers (target ≥ %.0f×): %@", speedUp, workers, speedUpTarget,
                     speedUp >= speedUpTarget ? "OK" : "BELOW TARGET"))
    }

    struct Measurement {
        var seconds: Double
        var verdict: String
    }

    /// Starts `workers` processes on a fresh database at once and times them from spawn to the last exit.
    private static func measure(
        hybrid: String, setup: CLIBenchmark.Setup, postgres: PostgresServer, workers: Int, concurrency: Int, samples: Int
    ) async throws -> Measurement {
        try await postgres.withDatabase { url in
            let arguments = [
                "eval", "--config", setup.config, "--db", url, "--feature", "summarize", "--dataset", setup.dataset,
                "--variants", "concise", "--concurrency", "\(concurrency)", "--run-id", "bench", "--worker",
            ]
            let started = ContinuousClock.now
            let statuses = try await withThrowingTaskGroup(of: MeasuredProcess.Usage.self) { group in
                for _ in 0..<workers {
                    group.addTask { try await MeasuredProcess(hybrid, arguments, timeout: .seconds(600)).run() }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let seconds = (ContinuousClock.now - started).seconds
            for usage in statuses where usage.status != 0 {
                print("  hybrid eval --worker exited \(usage.status): \(usage.output.suffix(400))")
            }
            let database = try await PostgresDatabase(url: url)
            defer { database.close() }
            let store = PostgresResultStore(database: database)
            let keys = try await store.completedKeys(run: "bench").count
            let rows = try await store.resultCount(run: "bench")
            let completed = try await store.run(id: "bench")?.status == .completed
            let once = keys == samples && rows == samples
            return Measurement(
                seconds: seconds,
                verdict: (once ? "every key stored once" : "KEYS \(keys), ROWS \(rows) OF \(samples)")
                    + (completed ? ", run completed" : ", RUN NOT COMPLETED"))
        }
    }
}
