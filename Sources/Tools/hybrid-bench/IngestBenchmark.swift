import Foundation
import HybridCollect
import HybridCore
import HybridEvents
import HybridPostgres
import HybridStore
import HybridTestSupport
import HybridProjectTestSupport

/// `hybrid-bench ingest [--events N] [--write-file PATH]`: router events into a field run in SQLite (default 200,000
/// events, distinct random ids, 400 installs, each install's 500 events one batch as its uploader sends them).
/// Timed: validated events into the store (the collector's store path) and JSON batches decoded event by event then stored (what
/// `hybrid collect` does per request after gunzip), both with `--in-flight` uploads at once (default 8, as a
/// collector serves many installs; concurrent batches share commits), the JSON line again one upload at a time
/// (bounded by one synchronous commit per batch), and the release `hybrid ingest FILE` on the same events as JSON
/// Lines (a child process: start-up, file, decoding, storing; what users run); the validated batches again into
/// PostgreSQL (`PostgresFieldEventStore`) beside SQLite. Each line gives CPU per event. `--write-file` only writes
/// the JSON Lines file, to time two builds of `hybrid ingest` on identical bytes.
/// Target: ≥ 100,000 events/s.
enum IngestBenchmark {
    static let target = 100_000.0

    static func run(_ arguments: BenchmarkArguments) async throws {
        let total = arguments.int("events", default: 200_000)
        let batchSize = 500
        let events = (0..<total).map(event)
        if let path = arguments.string("write-file") {
            // The JSON Lines file alone, so two builds' `hybrid ingest` can be timed on identical bytes.
            try jsonLines(events).write(to: URL(fileURLWithPath: path))
            print("ingest: \(total) events written to \(path)")
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-bench-ingest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        print("ingest: \(total) events in batches of \(batchSize), load average \(ResourceUsage.loadAverage())")

        let inFlight = arguments.int("in-flight", default: 8)
        let batches = stride(from: 0, to: total, by: batchSize).map { offset in
            events[offset..<min(total, offset + batchSize)].map { Result<RouteEvent, FieldEventRejection>.success($0) }
        }
        let stored = FieldEventIngestor(store: try SQLiteFieldEventStore(path: directory.appendingPathComponent("a.sqlite").path))
        var meter = Meter()
        try await forEach(batches, inFlight: inFlight) { batch in _ = try await stored.ingest(batch) }
        meter.report("validated events → SQLite, \(inFlight) uploads in flight", total)

        let bodies = try stride(from: 0, to: total, by: batchSize).map { offset in
            try JSONEncoder().encode(RouteEventBatch(events: Array(events[offset..<min(total, offset + batchSize)])))
        }
        let decoded = FieldEventIngestor(store: try SQLiteFieldEventStore(path: directory.appendingPathComponent("b.sqlite").path))
        meter = Meter()
        try await forEach(bodies, inFlight: inFlight) { body in _ = try await decoded.ingest(try LenientEventBatch(data: body).events) }
        meter.report("JSON batches decoded + validated → SQLite, \(inFlight) uploads in flight", total)

        // One upload at a time: every batch pays its own synchronous commit (fsync), whatever the code costs.
        let sequential = FieldEventIngestor(store: try SQLiteFieldEventStore(path: directory.appendingPathComponent("d.sqlite").path))
        meter = Meter()
        for body in bodies {
            _ = try await sequential.ingest(try LenientEventBatch(data: body).events)
        }
        meter.report("JSON batches decoded + validated → SQLite, 1 upload at a time (a commit each)", total)

        meter = Meter()
        var duplicates = 0
        for body in bodies.prefix(40) {
            duplicates += try await decoded.ingest(try LenientEventBatch(data: body).events).duplicates
        }
        meter.report("re-sent batches (all duplicates)", duplicates)

        try await measurePostgres(batches, inFlight: inFlight, total: total)
        try await measureCLI(events, in: directory)
    }

    /// The same validated batches into `PostgresFieldEventStore` on a throwaway server (`PostgresServer`: loopback,
    /// `fsync=off`, so the figure is the store's statements and round trips, not a disk's flushes).
    static func measurePostgres(
        _ batches: [[Result<RouteEvent, FieldEventRejection>]], inFlight: Int, total: Int
    ) async throws {
        let postgres: PostgresServer
        do {
            postgres = try await PostgresServer.start()
        } catch {
            print("ingest: no PostgreSQL line (\(error)); `make deps` installs postgresql")
            return
        }
        defer { postgres.stop() }
        try await postgres.withDatabase { url in
            let database = try await PostgresDatabase(url: url)
            defer { database.close() }
            let ingestor = FieldEventIngestor(store: PostgresFieldEventStore(database: database))
            let meter = Meter()
            try await forEach(batches, inFlight: inFlight) { batch in _ = try await ingestor.ingest(batch) }
            meter.report("validated events → PostgreSQL (loopback, fsync off), \(inFlight) uploads in flight", total)
        }
    }

    /// Runs `body` over `items` with at most `inFlight` running at once, as concurrent uploads reach a collector.
    static func forEach<Item: Sendable>(
        _ items: [Item], inFlight: Int, _ body: @escaping @Sendable (Item) async throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, item) in items.enumerated() {
                if index >= inFlight { try await group.next() }
                group.addTask { try await body(item) }
            }
            try await group.waitForAll()
        }
    }

    /// The release `hybrid ingest` on the events as a JSON Lines file, as `JSONLinesEventSink` writes them.
    static func measureCLI(_ events: [RouteEvent], in directory: URL) async throws {
        let hybrid = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("hybrid").path
        guard FileManager.default.isExecutableFile(atPath: hybrid) else {
            print("ingest: \(hybrid) is missing, so no `hybrid ingest` line; build it: swift build -c release --product hybrid")
            return
        }
        let file = directory.appendingPathComponent("events.jsonl")
        try jsonLines(events).write(to: file)
        let database = directory.appendingPathComponent("c.sqlite").path
        let usage = try await MeasuredProcess(hybrid, ["ingest", "--db", database, file.path], timeout: .seconds(600)).run()
        guard usage.status == 0 else {
            print("ingest: `hybrid ingest` failed (exit \(usage.status)): \(usage.output.prefix(400))")
            return
        }
        report("`hybrid ingest FILE` (release CLI, whole process)", events.count, seconds: usage.wallSeconds, cpuSeconds: usage.cpuSeconds)
    }

    /// The events as a JSON Lines file's bytes, as `JSONLinesEventSink` writes them.
    static func jsonLines(_ events: [RouteEvent]) throws -> Data {
        var lines = Data()
        for event in events { lines.append(try RouteEventLines.line(event)) }
        return lines
    }

    /// Wall and CPU time of this process from its creation.
    struct Meter {
        let start = ContinuousClock.now
        let cpuStart = ResourceUsage.cpuSeconds()

        func report(_ label: String, _ count: Int) {
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            IngestBenchmark.report(label, count, seconds: seconds, cpuSeconds: ResourceUsage.cpuSeconds() - cpuStart)
        }
    }

    static func report(_ label: String, _ count: Int, seconds: Double, cpuSeconds: Double) {
        let rate = Double(count) / max(seconds, 1e-9)
        let verdict = rate >= target ? "meets" : "MISSES"
        print(String(
            format: "ingest: %@: %d events in %.3f s = %.0f events/s, CPU %.2f µs/event (%@ target ≥ 100,000/s)",
            label, count, seconds, rate, cpuSeconds / Double(max(count, 1)) * 1e6, verdict))
    }

    /// Event `index`: install `index / 500`, whose uploader sends its 500 events, oldest first, as one batch
    /// (`HTTPBatchEventUploader`'s `maxBatchEvents`); installs' events interleave in time; ids are random.
    static func event(_ index: Int) -> RouteEvent {
        let install = index / 500
        let arm = install % 2 == 0
        return RouteEvent(
            id: String(format: "%08x-bench-%08d", index &* 2_654_435_761 & 0xffff_ffff, index),
            timestamp: Date(timeIntervalSince1970: 1_763_850_000 + Double(index % 500) * 0.6 + Double(install) / 1000),
            installId: "install-\(install)", feature: "summarize", configVersion: 3, variant: arm ? "concise" : "bullet",
            rolloutArm: arm ? nil : "bullet", bucket: install &* 7_919 % 10_000, servedBy: index % 5 == 0 ? "local" : "cloud",
            servedTier: index % 5 == 0 ? .onDevice : .thirdParty, outcome: .served,
            attempts: [.init(model: "cloud", tier: .thirdParty, outcome: .served, startMs: 0, durationMs: 80)],
            ttftMs: 30, latencyMs: 80 + Double(index % 50), inputTokens: 120, outputTokens: 40, costUSD: 0.00003,
            checks: [.init(name: "max_words", passed: index % 7 != 0)], labels: ["os": "iOS 18.1", "app": "2.3.0"])
    }
}
