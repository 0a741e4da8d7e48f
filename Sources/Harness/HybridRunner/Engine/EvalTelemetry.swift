import Foundation
import HybridConfig
import HybridCore
import HybridRouter
import HybridStore
import Tracing

/// An eval run as spans, beside production traffic in the same backend: one span per run (`eval {feature}`), and a
/// child per stored result written as the GenAI conventions' model call (`chat {model}`, tokens, error) with the
/// sample's facts as `hybrid.eval.*`. Spans follow the results as they are stored, from what each record holds
/// (its completion time and latency), so nothing is measured twice and a sample's span is its stored latency.
///
/// Written only when a tracer is installed (`hybrid eval --otlp-endpoint`); otherwise the runner makes none.
struct EvalTelemetry: Sendable {
    private let tracer: any Tracer
    private let run: any Span
    private let models: [String: ModelConfig]

    /// The run's telemetry, or nil when the tracer is the no-op one.
    init?(tracer: any Tracer, plan: EvalPlan) {
        guard !(tracer is NoOpTracer) else { return nil }
        self.tracer = tracer
        models = plan.models
        run = tracer.startSpan("eval \(plan.feature)", context: .topLevel, ofKind: .internal)
        var attributes = SpanAttributes()
        attributes[Names.runID] = plan.runID
        attributes[Names.feature] = plan.feature
        attributes[Names.configVersion] = plan.configVersion
        attributes[Names.planned] = plan.plannedCount
        attributes[Names.arms] = plan.arms.map(\.id)
        attributes[Names.openInferenceKind] = "CHAIN"  // Phoenix's name: a run is a chain of model calls
        run.attributes = attributes
    }

    /// A stored result as a child of the run's span, ending when the result completed.
    func record(_ result: ResultRecord) {
        guard result.error?.kind != "unavailable" else { return }
        let modelConfig = models[result.modelID]
        var call = ModelCallSpan(modelID: result.modelID, config: modelConfig, tier: result.tier)
        if result.error == nil {
            call.answered(usage: result.usage, costUSD: result.costUSD, responseModel: modelConfig?.model ?? result.modelID)
        }
        if let error = result.error { call.failed(error.kind) }
        call.routing(feature: result.feature, variant: result.promptVariant)
        call.failedChecks(result.constraints.filter { !$0.passed }.map(\.name))
        if result.cacheHit { call.fromCache() }
        call.add(Self.sampleAttributes(result))
        let end = DefaultTracerClock.Timestamp(nanosecondsSinceEpoch: UInt64(max(0, result.completedAt.timeIntervalSince1970 * 1e9)))
        let latency = UInt64(max(0, result.timings.totalMs * 1e6))
        let start = DefaultTracerClock.Timestamp(nanosecondsSinceEpoch: end.nanosecondsSinceEpoch &- min(latency, end.nanosecondsSinceEpoch))
        call.write(to: tracer, parent: run.context, from: start, to: end)
    }

    /// Ends the run's span with what was stored.
    func finish(_ summary: EvalSummary) {
        run.attributes[Names.stored] = summary.stored
        run.attributes[Names.errors] = summary.errors
        run.attributes[Names.interrupted] = summary.interrupted
        run.end()
    }

    private static func sampleAttributes(_ result: ResultRecord) -> SpanAttributes {
        var attributes = SpanAttributes()
        attributes[Names.runID] = result.key.runID
        attributes[Names.caseID] = result.key.caseID
        attributes[Names.repeatIndex] = result.key.repeatIndex
        attributes[Names.latencyMs] = result.timings.totalMs
        attributes[Names.checksPassed] = result.error == nil && result.constraints.allSatisfy(\.passed)
        for score in result.scores { attributes["\(Names.scorePrefix)\(score.scorer)"] = score.value }
        return attributes
    }

    /// The eval's own attribute names (the routing and model ones are the router's).
    enum Names {
        static let runID = "hybrid.eval.run_id"
        static let caseID = "hybrid.eval.case_id"
        static let repeatIndex = "hybrid.eval.repeat"
        static let latencyMs = "hybrid.eval.latency_ms"
        static let checksPassed = "hybrid.eval.checks_passed"
        static let scorePrefix = "hybrid.eval.score."
        static let planned = "hybrid.eval.planned"
        static let stored = "hybrid.eval.stored"
        static let errors = "hybrid.eval.errors"
        static let interrupted = "hybrid.eval.interrupted"
        static let arms = "hybrid.eval.arms"
        static let feature = "hybrid.feature"
        static let configVersion = "hybrid.config.version"
        static let openInferenceKind = "openinference.span.kind"
    }
}
