// hybrid-bench: performance checks run by hand in release mode, e.g. `swift run -c release hybrid-bench transport`.
// Each benchmark lives in its own file and registers here by name.
import Foundation

let benchmarks: [(name: String, summary: String, run: @Sendable (BenchmarkArguments) async throws -> Void)] = [
    ("transport", "CurlTransport and URLSessionTransport against a loopback server, compared with curl --parallel and a Python client",
     TransportBenchmark.run),
    ("config", "Config start-up from the last-known-good cache (200 features, target < 5 ms) and a 304 refresh on loopback",
     ConfigBenchmark.run),
    ("runner", "In-process EvalRunner library (no CLI start-up, no dataset file): 2,000 cases at concurrency 32 against an instant stub, all metrics and SQLite writes",
     RunnerBenchmark.run),
    ("cli", "The real release `hybrid eval` vs raw `curl --parallel` on one out-of-process stub: 0/20 ms, streaming or not, 2,000/20,000 samples",
     CLIBenchmark.run),
    ("router", "Router overhead per request with an instant fake model (target < 20 µs) and deadline accuracy (target 5 ms)",
     RouterBenchmark.run),
    ("telemetry", "The router's OpenTelemetry spans and metrics per request (also part of `router`): off (target ≤ 0.5 µs) and recording (target ≤ 5 µs)",
     RouterTelemetryBenchmark.run),
    ("report", "Report generation over 1,000,000 stored results, 5 arms (target < 2 s, < 150 MB peak RSS; sqlite3 floor beside it)",
     ReportBenchmark.run),
    ("view", "hybrid view: cases × arms grid pages of a 100,000-result run over loopback HTTP (target < 200 ms)",
     ViewBenchmark.run),
    ("workers", "Four `hybrid eval --worker` processes vs one on a shared PostgreSQL store, 20 ms stub: every key once, speed-up (target ≥ 3×)",
     WorkersBenchmark.run),
    ("ingest", "Router events into a field run in SQLite: validated, and decoded from JSON batches (target ≥ 100,000 events/s)",
     IngestBenchmark.run),
    ("hedge", "Hedged requests through the real router over a heavy-tailed scripted device model and a priced cloud: p95 and cost with and without (target p95 ≤ ½ at ≤ 10 % extra cloud cost)",
     HedgeBenchmark.run),
    ("calibrate", "The calibration zoo: false-decision share and power of every decision path over seeded null and non-null scenarios (target ≤ 5 %, upper bound ≤ 8 %)",
     CalibrateBenchmark.run),
    // Internal: the loopback server the transport benchmark starts as a child process.
    ("serve-loopback", "", LoopbackServeCommand.run),
]

let arguments = BenchmarkArguments(CommandLine.arguments.dropFirst())
if let name = arguments.command, let benchmark = benchmarks.first(where: { $0.name == name }) {
    do {
        try await benchmark.run(arguments)
    } catch {
        print("\(name): failed: \(error)")
        exit(1)
    }
} else {
    print("usage: hybrid-bench <benchmark> [options]")
    for benchmark in benchmarks where !benchmark.summary.isEmpty {
        print("  \(benchmark.name)  \(benchmark.summary)")
    }
    exit(arguments.command == nil ? 0 : 2)
}
