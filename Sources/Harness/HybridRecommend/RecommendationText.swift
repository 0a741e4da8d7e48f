import Foundation

/// Shared wording of figures in summaries and config descriptions.
enum RecommendationText {
    static func figures(_ candidate: CandidateEvaluation) -> String {
        var parts = ["adherence \(candidate.adherence)"]
        if let result = candidate.result {
            parts.append("p95 \(SimulationResult.ms(result.latency.p95))")
            parts.append("cost/1k \(result.costPer1k.formatted(SimulationResult.dollars))")
            for quality in result.quality { parts.append("\(quality)") }
        } else {
            parts.append("p95 \(SimulationResult.ms(candidate.p95LatencyMs))")
            parts.append("cost/1k \(SimulationResult.dollars(candidate.costPer1k))")
        }
        if let drop = candidate.qualityDrop {
            parts.append("quality drop vs the current route \(drop.formatted { String(format: "%.3f", $0) })")
        }
        return parts.joined(separator: ", ")
    }
}
