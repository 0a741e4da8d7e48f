import Foundation
import HybridConfig
import HybridCore
import HybridCurl
import HybridEvents
import HybridRouter
import HybridTestSupport

/// Part of `hybrid-bench router`: the router's overhead with an event sink attached (target < 25 µs per request),
/// with the in-memory sink, the HTTP batch uploader sending to a collector stand-in on loopback (without and with a
/// spool), and the JSON Lines file.
enum RouterEventSinkBenchmark {
    static let overheadTargetMicroseconds = 25.0

    static func run(requests: Int, input: [String: String], model: ScriptedLanguageModel, direct: Double) async throws {
        let memory = InMemoryEventSink()
        let memoryOverhead = try await overhead(sink: memory, requests: requests, input: input, model: model, direct: direct) {
            // Drained now and then so 100,000 events do not pile up in the benchmark's memory.
            if memory.events.count >= 10_000 { _ = memory.drain() }
        }
        print("  event sink, in memory: overhead \(RouterBenchmark.format(memoryOverhead)) µs")

        let collector = try LoopbackHTTPServer.synchronous(recordRequests: false) { _ in
            .json(#"{"accepted":0,"duplicates":0,"rejected":[]}"#)
        }
        defer { collector.stop() }
        let uploader = HTTPBatchEventUploader(
            configuration: .init(
                endpoint: collector.baseURL + "/v1/events", token: "bench", maxQueuedEvents: requests + 10,
                maxBatchEvents: 500, maxBatchAge: .milliseconds(200)),
            transport: CurlTransport())
        let httpOverhead = try await overhead(sink: uploader, requests: requests, input: input, model: model, direct: direct) {}
        let status = await uploader.flush()
        print("  event sink, HTTP uploader to a loopback collector: overhead \(RouterBenchmark.format(httpOverhead)) µs (\(collector.requestCount) gzip batches, \(status.pending) pending, \(status.droppedCount) dropped)")

        // The sinks a normal exit drains (#66): a JSON Lines file, and the uploader with a spool.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-bench-sink-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = JSONLinesEventSink(directory: folder.appendingPathComponent("jsonl"), maxFileBytes: 64 << 20)
        let fileOverhead = try await overhead(sink: file, requests: requests, input: input, model: model, direct: direct) {}
        print("  event sink, JSON Lines file (written on its queue, drained at exit): overhead \(RouterBenchmark.format(fileOverhead)) µs (\(file.droppedCount) dropped)")
        let spooled = HTTPBatchEventUploader(
            configuration: .init(
                endpoint: collector.baseURL + "/v1/events", token: "bench", spoolDirectory: folder, maxQueuedEvents: requests + 10,
                maxBatchEvents: 500, maxBatchAge: .milliseconds(200)),
            transport: CurlTransport())
        let spoolOverhead = try await overhead(sink: spooled, requests: requests, input: input, model: model, direct: direct) {}
        _ = await spooled.flush()
        print("  event sink, HTTP uploader with a spool (drained to it at exit): overhead \(RouterBenchmark.format(spoolOverhead)) µs")
        let worst = max(memoryOverhead, httpOverhead, fileOverhead, spoolOverhead)
        print(String(format: "router with an event sink: overhead %.2f µs (target < %.0f µs) %@",
                     worst, overheadTargetMicroseconds, worst < overheadTargetMicroseconds ? "OK" : "ABOVE TARGET"))
    }

    private static func overhead(
        sink: any RouteEventSink, requests: Int, input: [String: String], model: ScriptedLanguageModel, direct: Double,
        between: () -> Void
    ) async throws -> Double {
        let router = try Router(
            config: .fixed(RouterBenchmark.document(deadlineMs: nil)), models: .models(["instant": model]), installId: "bench-install",
            eventSink: sink, eventLabels: ["appVersion": "1.0", "os": "Linux", "deviceClass": "server"], onIncident: { _ in })
        _ = try await router.generate(feature: "summarize", input: input)
        let routed = try await RouterBenchmark.perRequest(requests) {
            _ = try await router.generate(feature: "summarize", input: input)
            between()
        }
        return routed - direct
    }
}
