import CoreMetrics
import Foundation
import HybridConfig
import HybridCore
import HybridOTLP
import HybridRouter
import HybridTestSupport
import InMemoryTracing
import MetricsTestKit
import Tracing

/// Part of `hybrid-bench router`: what the router's spans and metrics (#69) cost per request. Targets: ≤ 0.5 µs when
/// no tracer or metrics backend is bootstrapped (the default: every request only finds the no-op ones), ≤ 5 µs of the
/// router's own work with a recording tracer and metrics backend (measured over backends that hand off at once; the
/// swift-distributed-tracing and swift-metrics test backends, which keep everything, are shown beside them).
enum RouterTelemetryBenchmark {
    static let offTargetMicroseconds = 0.5
    static let recordingTargetMicroseconds = 5.0

    /// `hybrid-bench telemetry [--requests N]`: these rows alone.
    static func run(_ arguments: BenchmarkArguments) async throws {
        let requests = arguments.int("requests", default: 100_000)
        print("router telemetry: \(requests) requests per case, instant fake model; costs in process CPU time (other processes' load left out)")
        let model = ScriptedLanguageModel(
            id: "instant", whenExhausted: .reply("ok", usage: TokenUsage(promptTokens: 40, completionTokens: 10)), recordRequests: false)
        let input = ["input": "The city council approved a plan to convert two downtown garages into 300 apartments."]
        try await run(requests: requests, input: input, model: model)
        try await otlpRow(requests: requests, input: input, model: model)
    }

    static func run(requests: Int, input: [String: String], model: ScriptedLanguageModel) async throws {
        let document = RouterBenchmark.document(deadlineMs: nil)
        func router(tracer: (any Tracer)? = nil, metrics: (any MetricsFactory)? = nil) -> Router {
            Self.router(document, model: model, tracer: tracer, metrics: metrics)
        }
        let off = offCheck(requests * 10)
        let noOp = try await addedCost(
            requests: requests, input: input, with: router(tracer: NoOpTracer(), metrics: NOOPMetricsHandler.instance), without: router()) {}
        let handOff = HandOffTracer()
        let light = try await addedCost(requests: requests, input: input, with: router(tracer: handOff), without: router()) {}
        let lightMetrics = try await addedCost(requests: requests, input: input, with: router(metrics: LastValueMetrics()), without: router()) {}
        let lightBoth = try await addedCost(
            requests: requests, input: input, with: router(tracer: handOff, metrics: LastValueMetrics()), without: router()) {}
        let tracer = InMemoryTracer()
        let traced = try await addedCost(requests: requests, input: input, with: router(tracer: tracer), without: router()) {
            tracer.clearAll()
        }
        let metrics = TestMetrics()
        let metered = try await addedCost(requests: requests, input: input, with: router(metrics: metrics), without: router()) {
            metrics.reset()
        }
        let both = try await addedCost(requests: requests, input: input, with: router(tracer: tracer, metrics: metrics), without: router()) {
            tracer.clearAll()
            metrics.reset()
        }
        print(String(format: "  telemetry off (nothing bootstrapped): the per-request check (tracer and metrics factory looked up, both no-op) %.3f µs (target ≤ %.1f µs) %@; a router given the no-op pair explicitly: %+.2f µs/request against the default",
                     off, offTargetMicroseconds, off <= offTargetMicroseconds ? "OK" : "ABOVE TARGET", noOp))
        print(String(format: "  telemetry on, the router's own work (a tracer whose span end is a hand-off, a metrics backend keeping last values): spans %+.2f µs/request, metrics %+.2f µs, both %+.2f µs (target ≤ %.0f µs) %@",
                     light, lightMetrics, lightBoth, recordingTargetMicroseconds, lightBoth <= recordingTargetMicroseconds ? "OK" : "ABOVE TARGET"))
        print(String(format: "  telemetry on, test backends: InMemoryTracer (request span + 1 attempt span, ~20 attributes, kept in memory) %+.2f µs/request; TestMetrics (3 handles per call, values kept with dates) %+.2f µs; both %+.2f µs",
                     traced, metered, both))
    }

    static func router(
        _ document: HybridConfigDocument, model: ScriptedLanguageModel, tracer: (any Tracer)?, metrics: (any MetricsFactory)?
    ) -> Router {
        Router(
            unvalidated: .fixed(document), models: .models(["instant": model]), installId: "bench-install",
            tracer: tracer, metricsFactory: metrics, onIncident: { _ in })
    }

    /// The OTLP exporter as an app runs it (`HybridOTLP`, swift-otel's batch processor and OTLP/HTTP protobuf) sending
    /// to a loopback collector that answers 200: spans and metrics on, against the same router with the no-op pair.
    /// Process CPU time, so the background export's encoding and sending counts too. Bootstraps the process's tracer
    /// and metrics factory, so it runs last; a hybrid-bench built without the `OTLP` trait (`make bench` builds it
    /// with) says so instead.
    static func otlpRow(requests: Int, input: [String: String], model: ScriptedLanguageModel) async throws {
        let document = RouterBenchmark.document(deadlineMs: nil)
        let collector = try LoopbackHTTPServer.synchronous(recordRequests: false) { _ in .json("{}") }
        defer { collector.stop() }
        let export: OTLPExport
        do {
            export = try OTLPExport.bootstrap(endpoint: collector.baseURL, serviceName: "hybrid-bench")
        } catch {
            print("  OTLP exporter: not measured, \(error)")
            return
        }
        let exported = try await addedCost(
            requests: requests, input: input, with: router(document, model: model, tracer: nil, metrics: nil),
            without: router(document, model: model, tracer: NoOpTracer(), metrics: NOOPMetricsHandler.instance)) {}
        let report = await export.shutdown()
        print(String(format: "  telemetry on, OTLP exporter (HybridOTLP: swift-otel batching, protobuf over HTTP to a loopback collector, spans and metrics): %+.2f µs/request in process CPU, export included; %@",
                     exported, report.description))
    }

    /// Mean microseconds (CPU) of what a request does before any telemetry work when nothing is bootstrapped: the
    /// process's tracer and metrics factory looked up and found to be the no-op ones (`RouterTelemetry.begin`).
    static func offCheck(_ count: Int) -> Double {
        var on = 0
        let start = processCPUNanoseconds()
        for _ in 0..<count {
            let tracing = !(InstrumentationSystem.tracer is NoOpTracer)
            let metering = !(MetricsSystem.factory is NOOPMetricsHandler)
            if tracing || metering { on += 1 }
        }
        let elapsed = processCPUNanoseconds() - start
        precondition(on == 0, "the bench bootstraps no tracer")
        return Double(elapsed) / 1_000 / Double(count)
    }

    /// What `with` adds per request over `without`, as `RouterBenchmark.addedCost` measures it (alternating rounds,
    /// medians) but in five rounds of the process's CPU time: the figures are a few microseconds, under the noise a
    /// second process's build puts into wall time on two cores. `reset` runs between rounds, so recorded spans and
    /// values do not pile up.
    static func addedCost(
        requests: Int, input: [String: String], with: Router, without: Router, reset: () -> Void
    ) async throws -> Double {
        var a: [Double] = [], b: [Double] = []
        for _ in 0..<5 {
            b.append(try await cpuPerRequest(requests / 2) { _ = try await without.generate(feature: "summarize", input: input) })
            a.append(try await cpuPerRequest(requests / 2) { _ = try await with.generate(feature: "summarize", input: input) })
            reset()
        }
        return a.sorted()[2] - b.sorted()[2]
    }

    /// Mean microseconds of this process's CPU time (every thread) per call of `body`.
    static func cpuPerRequest(_ count: Int, _ body: () async throws -> Void) async throws -> Double {
        let start = processCPUNanoseconds()
        for _ in 0..<count { try await body() }
        return Double(processCPUNanoseconds() - start) / 1_000 / Double(count)
    }

    static func processCPUNanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
