import Foundation
import HybridCollect
import HybridCore
import HybridStore

/// `hybrid-bench ingest [--events N]`: router events into a field run in SQLite (default 200,000 events, distinct
/// ids, 2,000 installs, batches of 500 as the uploader sends them). Timed twice: validated events into the store
/// (the collector's store path), and JSON batches decoded event by event then stored (what `hybrid collect` does
/// per request after gunzip). Target: ≥ 100,000 events/s.
enum IngestBenchmark {
    static func run(_ arguments: BenchmarkArguments) async throws {
        let total = arguments.int("events", default: 200_000)
        let batchSize = 500
        let events = (0..<total).map(event)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-bench-ingest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let stored = FieldEventIngestor(store: try SQLiteFieldEventStore(path: directory.appendingPathComponent("a.sqlite").path))
        let start = ContinuousClock.now
        for offset in stride(from: 0, to: total, by: batchSize) {
            let batch = events[offset..<min(total, offset + batchSize)].map { Result<RouteEvent, FieldEventRejection>.success($0) }
            _ = try await stored.ingest(batch)
        }
        report("validated events → SQLite", total, since: start)

        let bodies = try stride(from: 0, to: total, by: batchSize).map { offset in
            try JSONEncoder().encode(RouteEventBatch(events: Array(events[offset..<min(total, offset + batchSize)])))
        }
        let decoded = FieldEventIngestor(store: try SQLiteFieldEventStore(path: directory.appendingPathComponent("b.sqlite").path))
        let decodeStart = ContinuousClock.now
        for body in bodies {
            _ = try await decoded.ingest(try LenientEventBatch(data: body).events)
        }
        report("JSON batches decoded + validated → SQLite", total, since: decodeStart)

        let resendStart = ContinuousClock.now
        var duplicates = 0
        for body in bodies.prefix(40) {
            duplicates += try await decoded.ingest(try LenientEventBatch(data: body).events).duplicates
        }
        report("re-sent batches (all duplicates)", duplicates, since: resendStart)
    }

    static func event(_ index: Int) -> RouteEvent {
        RouteEvent(
            id: String(format: "%08x-bench-%08d", index &* 2_654_435_761 & 0xffff_ffff, index),
            timestamp: Date(timeIntervalSince1970: 1_763_850_000 + Double(index) / 1000),
            installId: "install-\(index % 2_000)", feature: "summarize", configVersion: 3, variant: index % 2 == 0 ? "concise" : "bullet",
            rolloutArm: index % 2 == 0 ? nil : "bullet", bucket: index % 10_000, servedBy: index % 5 == 0 ? "local" : "cloud",
            servedTier: index % 5 == 0 ? .onDevice : .thirdParty, outcome: .served,
            attempts: [.init(model: "cloud", tier: .thirdParty, outcome: .served, startMs: 0, durationMs: 80)],
            ttftMs: 30, latencyMs: 80 + Double(index % 50), inputTokens: 120, outputTokens: 40, costUSD: 0.00003,
            checks: [.init(name: "max_words", passed: index % 7 != 0)], labels: ["os": "iOS 18.1", "app": "2.3.0"])
    }

    static func report(_ label: String, _ count: Int, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = Double(count) / max(seconds, 1e-9)
        let verdict = rate >= 100_000 ? "meets" : "MISSES"
        print(String(format: "ingest: %@: %d events in %.3f s = %.0f events/s (%@ target ≥ 100,000/s)", label, count, seconds, rate, verdict))
    }
}
