import Foundation

extension SimulationResult {
    /// The figures as text for the terminal, one per line.
    public func render() -> String {
        var lines: [String] = []
        lines.append("simulated route for \(feature) over run \(runID): \(arms.map(\.id).joined(separator: " → "))")
        lines.append("  fallback on: \(policy.fallback.map(\.description).joined(separator: ", "))")
        lines.append("  requests: \(count)\(incompleteCases > 0 ? " (\(incompleteCases) cases left out: an arm has no result for them)" : "")")
        for estimate in quality {
            lines.append("  quality \(estimate)")
        }
        lines.append("  adherence: \(adherence)")
        lines.append("  latency: p50 \(Self.ms(latency.p50)), p95 \(Self.ms(latency.p95)), p99 \(Self.ms(latency.p99)), mean \(latency.mean.formatted(Self.ms))")
        lines.append("  cost per 1,000 requests: \(costPer1k.formatted(Self.dollars))")
        lines.append("  served by model: " + servedByModel.map { "\($0.label) \(ProportionEstimate.percent($0.share.proportion))" }.joined(separator: ", "))
        lines.append("  served by tier: " + servedByTier.map { "\($0.label) \(ProportionEstimate.percent($0.share.proportion))" }.joined(separator: ", "))
        lines.append("  no arm passed: \(noArmPassed)")
        if let hedge { lines.append(contentsOf: hedge.lines.map { "  " + $0 }) }
        lines.append(String(format: "  attempts per request: %.2f", meanAttempts)
            + (timedOutAttempts > 0 ? "; \(timedOutAttempts) attempts cut at the timeout" : "")
            + (unpricedAttempts > 0 ? "; \(unpricedAttempts) attempts without a price counted as free" : "")
            + (cacheHitAttempts > 0 ? "; \(cacheHitAttempts) cached results (original latency)" : ""))
        return lines.joined(separator: "\n")
    }

    /// One line per simulation of the same route with another hedge delay (the first, unhedged, is the baseline):
    /// latency percentiles, adherence, cost, the extra cost over the baseline and the share hedged.
    public static func hedgeTable(_ results: [SimulationResult]) -> String {
        guard let baseline = results.first else { return "" }
        let header = ["hedge", "p50", "p95", "p99", "adherence", "cost/1k", "extra/1k", "hedged", "races won by"]
        var rows = [header]
        for result in results {
            let extra = result.costPer1k.mean - baseline.costPer1k.mean
            rows.append([
                result.hedge.map { "\($0.afterMs) ms" } ?? "none", ms(result.latency.p50), ms(result.latency.p95), ms(result.latency.p99),
                ProportionEstimate.percent(result.adherence.proportion), dollars(result.costPer1k.mean),
                result.hedge == nil ? "-" : dollars(extra),
                result.hedge.map { ProportionEstimate.percent($0.hedged.proportion) } ?? "-",
                result.hedge.map { $0.winsByModel.map { "\($0.label) \(ProportionEstimate.percent($0.share.proportion))" }.joined(separator: ", ") } ?? "-",
            ])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        let lines = rows.map { row in
            row.indices.map { $0 == row.count - 1 ? row[$0] : row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        return (["simulated hedges for \(baseline.feature) over run \(baseline.runID): \(baseline.arms.map(\.id).joined(separator: " → ")), n = \(baseline.count)"] + lines)
            .joined(separator: "\n")
    }

    static func ms(_ value: Double) -> String {
        value.isNaN ? "n/a" : value >= 100 ? String(format: "%.0f ms", value) : String(format: "%.1f ms", value)
    }

    static func dollars(_ value: Double) -> String {
        value.isNaN ? "n/a" : value == 0 ? "$0" : value >= 0.01 ? String(format: "$%.4f", value) : String(format: "$%.6f", value)
    }
}
