import CoreMetrics
import Foundation
import HybridConfig
import HybridCore
import HybridRouter
import HybridTestSupport
import InMemoryTracing
import MetricsTestKit
import Tracing

/// Part of `hybrid-bench router`: what the router's spans and metrics (#69) cost per request. Targets: ≤ 0.5 µs when
/// no tracer or metrics backend is bootstrapped (the default: every request only finds the no-op ones), ≤ 5 µs with a
/// recording tracer.
enum RouterTelemetryBenchmark {
    static let offTargetMicroseconds = 0.5
    static let recordingTargetMicroseconds = 5.0

    static func run(requests: Int, input: [String: String], model: ScriptedLanguageModel) async throws {
        let document = RouterBenchmark.document(deadlineMs: nil)
        func router(tracer: (any Tracer)? = nil, metrics: (any MetricsFactory)? = nil) -> Router {
            Router(
                unvalidated: .fixed(document), models: .models(["instant": model]), installId: "bench-install",
                tracer: tracer, metricsFactory: metrics, onIncident: { _ in })
        }
        let off = offCheck(requests * 10)
        let noOp = try await RouterBenchmark.addedCost(
            requests: requests, input: input, with: router(tracer: NoOpTracer(), metrics: NOOPMetricsHandler.instance), without: router())
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
        print(String(format: "  telemetry on: in-memory tracer (request span + 1 attempt span, ~20 attributes) %+.2f µs/request (target ≤ %.0f µs) %@; TestMetrics (2 histograms, 1 timer per call) %+.2f µs; both %+.2f µs",
                     traced, recordingTargetMicroseconds, traced <= recordingTargetMicroseconds ? "OK" : "ABOVE TARGET", metered, both))
    }

    /// Mean microseconds of what a request does before any telemetry work when nothing is bootstrapped: the
    /// process's tracer and metrics factory looked up and found to be the no-op ones (`RouterTelemetry.begin`).
    static func offCheck(_ count: Int) -> Double {
        let clock = ContinuousClock()
        var on = 0
        let start = clock.now
        for _ in 0..<count {
            let tracing = !(InstrumentationSystem.tracer is NoOpTracer)
            let metering = !(MetricsSystem.factory is NOOPMetricsHandler)
            if tracing || metering { on += 1 }
        }
        let elapsed = clock.now - start
        precondition(on == 0, "the bench bootstraps no tracer")
        return elapsed.seconds * 1e6 / Double(count)
    }

    /// `RouterBenchmark.addedCost` with `reset` between rounds, so recorded spans and values do not pile up.
    static func addedCost(
        requests: Int, input: [String: String], with: Router, without: Router, reset: () -> Void
    ) async throws -> Double {
        var a: [Double] = [], b: [Double] = []
        for _ in 0..<3 {
            b.append(try await RouterBenchmark.perRequest(requests / 2) { _ = try await without.generate(feature: "summarize", input: input) })
            a.append(try await RouterBenchmark.perRequest(requests / 2) { _ = try await with.generate(feature: "summarize", input: input) })
            reset()
        }
        return a.sorted()[1] - b.sorted()[1]
    }
}
