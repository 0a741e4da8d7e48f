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
        if let drop = candidate.qualityDrop { parts.append(qualityChange(drop)) }
        return parts.joined(separator: ", ")
    }

    /// The paired quality difference against the current route, worded by its sign: a negative drop is a gain and
    /// is said as one (`quality gain … 0.867`), never as "quality drop -0.867".
    static func qualityChange(_ drop: MeanEstimate) -> String {
        let format = { (value: Double) in String(format: "%.3f", value) }
        guard drop.mean < 0 else { return "quality drop vs the current route \(drop.formatted(format))" }
        let gain = MeanEstimate(
            count: drop.count, mean: -drop.mean, lower: drop.upper.map { -$0 }, upper: drop.lower.map { -$0 }, method: drop.method)
        return "quality gain vs the current route \(gain.formatted(format))"
    }
}
