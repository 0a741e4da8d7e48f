import CoreMetrics
import HybridConfig
import HybridCore

extension RequestTelemetry {
    /// The conventions' client metrics per model call (`gen_ai.client.operation.duration` in seconds through a
    /// `Timer`, `gen_ai.client.token.usage` through an aggregating `Recorder`: both what swift-otel and
    /// swift-prometheus export as histograms), and the router's counters per request.
    ///
    /// Handles are made per record, not cached: swift-metrics hands creation to the backend, whose registry already
    /// keys handles by label and dimensions (swift-otel, swift-prometheus), and `hybrid-bench router` shows the cost.
    func record(_ summary: RouteSummary, into factory: any MetricsFactory) {
        var calls = 0
        for attempt in summary.attempts where attempt.calledModel {
            if attempt.outcome.kind != .lostRace { calls += 1 }
            recordCall(attempt, summary: summary, factory: factory)
        }
        let feature = [(HybridNames.feature, summary.feature)]
        if calls > 1 { Counter(label: HybridNames.fallbacksMetric, dimensions: feature, factory: factory).increment(by: calls - 1) }
        if summary.attempts.contains(where: { $0.outcome.kind == .lostRace }) {
            Counter(label: HybridNames.hedgeRacesMetric, dimensions: feature, factory: factory).increment()
        }
        if let cost = summary.costUSD, cost > 0 {
            FloatingPointCounter(label: HybridNames.costMetric, dimensions: feature, factory: factory).increment(by: cost)
        }
    }

    private func recordCall(_ attempt: RouteAttempt, summary: RouteSummary, factory: any MetricsFactory) {
        let config = summary.document.models[attempt.modelID]
        let model = config?.model ?? attempt.modelID
        var dimensions = [
            (GenAINames.operationName, GenAINames.chat), (GenAINames.providerName, config?.providerName ?? "_OTHER"),
            (GenAINames.requestModel, model),
        ]
        if attempt.outcome.kind == .served {
            dimensions.append((GenAINames.responseModel, summary.response?.providerModel ?? model))
        }
        if let usage = attempt.usage {
            Recorder(label: GenAINames.clientTokenUsage, dimensions: dimensions + [(GenAINames.tokenType, GenAINames.input)], factory: factory)
                .record(usage.promptTokens)
            Recorder(label: GenAINames.clientTokenUsage, dimensions: dimensions + [(GenAINames.tokenType, GenAINames.output)], factory: factory)
                .record(usage.completionTokens)
        }
        if let errorType = attempt.errorType { dimensions.append((GenAINames.errorType, errorType)) }
        Timer(label: GenAINames.clientOperationDuration, dimensions: dimensions, factory: factory)
            .recordNanoseconds(attempt.duration.nanoseconds)
    }
}
