import Foundation

extension Recommendation {
    /// The decisions and the figures behind them, for the terminal.
    public func renderSummary() -> String {
        var lines: [String] = []
        for feature in features {
            lines.append("\(feature.feature) (run \(feature.runID), n = \(feature.count), \(feature.candidatesSimulated) routes simulated, \(feature.candidatesQualifying) meet every floor):")
            lines.append("  floors: " + Self.describe(feature.floors))
            if let best = feature.bestArm {
                lines.append(String(format: "  best single arm on %@: %@ (mean %.3f)", best.scorer, best.id, best.mean))
            }
            switch feature.decision {
            case .change:
                lines.append("  CHANGE → \(feature.chosen?.label ?? "?")")
            case .keepCurrentMeetsFloors:
                lines.append("  KEEP \(feature.current?.label ?? "current order") (meets every floor; nothing qualifying is cheaper)")
            case .keepNothingQualifies:
                lines.append("  KEEP current order: nothing meets every floor")
            }
            if let chosen = feature.chosen {
                lines.append("  \(feature.decision == .change ? "recommended" : "current"): \(RecommendationText.figures(chosen))")
            }
            if let current = feature.current, feature.decision == .change {
                lines.append("  current \(current.label): \(RecommendationText.figures(current))")
                for check in current.failedChecks { lines.append("    current \(check)") }
            }
            if let closest = feature.closest {
                if closest.isCurrent {
                    lines.append("  closest candidate is the current route:")
                } else {
                    lines.append("  closest candidate \(closest.label): \(RecommendationText.figures(closest))")
                }
                for check in closest.checks { lines.append("    \(check)") }
            }
            if let hedge = feature.hedge { lines.append(contentsOf: hedge.lines.map { "  " + $0 }) }
            for note in feature.notes { lines.append("  note: \(note)") }
        }
        for note in notes { lines.append("note: \(note)") }
        return lines.joined(separator: "\n")
    }

    static func describe(_ floors: FeatureFloors) -> String {
        var parts: [String] = []
        if let a = floors.minAdherenceLower { parts.append(String(format: "adherence Wilson lower ≥ %.1f%%", a * 100)) }
        if let q = floors.maxQualityDrop { parts.append("quality drop (\(q.scorer ?? "first scorer")) CI upper ≤ \(q.value)") }
        if let p = floors.p95LatencyMs { parts.append("p95 ≤ \(SimulationResult.ms(p))") }
        if let c = floors.maxCostPer1k { parts.append("cost ≤ \(SimulationResult.dollars(c))/1k") }
        parts.append("privacy \(floors.privacy.rawValue)")
        parts.append("fallback on \(floors.fallback.map(\.description).joined(separator: ", "))")
        return parts.joined(separator: ", ")
    }
}
