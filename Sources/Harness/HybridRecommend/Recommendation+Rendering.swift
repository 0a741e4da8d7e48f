import Foundation

extension Recommendation {
    /// The decisions and the figures behind them, for the terminal.
    public func renderSummary() -> String {
        var lines: [String] = []
        for feature in features {
            lines.append("\(feature.feature) (run \(feature.runID), n = \(feature.count), \(feature.candidatesSimulated) routes simulated, \(feature.candidatesQualifying) meet every floor):")
            lines.append("  floors: " + Self.describe(feature.floors))
            lines.append("  " + feature.headline)
            for line in feature.evidence { lines.append("  \(line)") }
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
        if let q = floors.maxQualityDrop { parts.append("quality (\(q.scorer ?? "first scorer")) within \(q.value) of the current route") }
        parts.append("adherence within \(floors.maxAdherenceDrop) of the current route")
        if let p = floors.p95LatencyMs { parts.append("p95 ≤ \(SimulationResult.ms(p))") }
        if let c = floors.maxCostPer1k { parts.append("cost ≤ \(SimulationResult.dollars(c))/1k") }
        parts.append("privacy \(floors.privacy.rawValue)")
        parts.append("fallback on \(floors.fallback.map(\.description).joined(separator: ", "))")
        return parts.joined(separator: ", ")
    }
}

extension FeatureRecommendation {
    /// The decision in one line, as `hybrid recommend` prints it and `hybrid report` puts under the ★.
    public var headline: String {
        switch decision {
        case .change:
            // "to", not an arrow: arrows are the priority order inside the label.
            "CHANGE to \(chosen?.label ?? "?")"
        case .keepNoEvidence:
            "KEEP \(current?.label ?? "current order") (no candidate shown better, or as good and cheaper or faster)"
        case .keepNothingQualifies:
            "KEEP current order: nothing meets every floor"
        }
    }
}
