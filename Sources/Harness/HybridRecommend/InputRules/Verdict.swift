import Foundation

/// The decision on the cross-fitted outcomes against the current route, paired on cases: as good within the margin
/// (one-sided t at α = 0.05 that the adherence lost is under the margin) and cheaper (one-sided, cost lower), or
/// better (adherence higher, one-sided) at no more cost (mean cost not above). Never against the best arm observed.
public struct Verdict: Sendable {
    /// Cross-fitted minus current adherence per case: mean and one-sided bounds.
    public let adherenceMean: Double
    public let adherenceLower: Double
    /// Cross-fitted minus current cost per request: mean and one-sided upper bound.
    public let costMean: Double
    public let costUpper: Double
    let margin: Double
    /// The policy's quality floor, when it sets one: the scorer, its margin and the cross-fitted minus current
    /// score per case (mean and one-sided lower bound). Every claim needs it held, as `recommend` requires.
    let quality: (scorer: String, margin: Double, mean: Double, lower: Double)?

    init(_ learned: CaseOutcomes, current: CaseOutcomes, margin: Double, qualityFloor: (scorer: String, margin: Double)? = nil) {
        let gain = OneSidedBound(learned.adherence, minus: current.adherence)
        let cost = OneSidedBound(learned.cost, minus: current.cost)
        adherenceMean = gain.mean
        adherenceLower = gain.lower
        costMean = cost.mean
        costUpper = cost.upper
        self.margin = margin
        quality = qualityFloor.map { floor in
            let drop = OneSidedBound(learned.quality, minus: current.quality)
            return (floor.scorer, floor.margin, drop.mean, drop.lower)
        }
    }

    public var nonInferior: Bool { adherenceLower > -margin }
    public var cheaper: Bool { costUpper < 0 }
    public var better: Bool { adherenceLower > 0 && (costMean <= 0 || Recommender.nearlyEqual(costMean, 0)) }
    /// The quality floor holds (or the policy sets none).
    var qualityHeld: Bool { quality.map { $0.lower > -$0.margin } ?? true }

    /// The claim shown, in words; nil when none is.
    public var claim: String? {
        guard qualityHeld, let claim = adherenceClaim else { return nil }
        guard let quality else { return claim }
        return claim + String(format: "; %@ within %.3g of the current route (%+.3f, one-sided 95 %% bound %+.3f)",
                              quality.scorer, quality.margin, quality.mean, quality.lower)
    }

    private var adherenceClaim: String? {
        if nonInferior && cheaper {
            return String(
                format: "as good as the current route (adherence %+.1f points, one-sided 95 %% bound %+.1f > −%.1f) and cheaper (%+.6f $/request, bound %+.6f < 0), cross-fitted on the cases",
                adherenceMean * 100, adherenceLower * 100, margin * 100, costMean, costUpper)
        }
        if better {
            return String(
                format: "better than the current route (adherence %+.1f points, one-sided 95 %% bound %+.1f > 0) at no more cost (%+.6f $/request), cross-fitted on the cases",
                adherenceMean * 100, adherenceLower * 100, costMean)
        }
        return nil
    }

    /// What the rule's held-out figures failed to show.
    func shortfall(margin: Double) -> String {
        var parts: [String] = []
        if !nonInferior {
            parts.append(String(format: "not shown as good as the current route (adherence %+.1f points, bound %+.1f ≤ −%.1f)", adherenceMean * 100, adherenceLower * 100, margin * 100))
        }
        if !cheaper { parts.append(String(format: "not shown cheaper (%+.6f $/request, bound %+.6f)", costMean, costUpper)) }
        if let quality, !qualityHeld {
            parts.append(String(format: "not shown within %.3g of the current route on %@ (%+.3f, bound %+.3f), the policy's quality floor", quality.margin, quality.scorer, quality.mean, quality.lower))
        }
        return "on held-out folds the rule was " + parts.joined(separator: " and ") + ", and not shown better at no more cost: nothing is proposed"
    }
}

/// The share of requests a rule sends to the cloud order first, with the rest going to the device order.
public struct SelectionShare: Sendable {
    public let cloud: Double
    public var device: Double { 1 - cloud }

    init(_ selected: [Bool]) {
        cloud = selected.isEmpty ? 0 : Double(selected.filter { $0 }.count) / Double(selected.count)
    }
}
