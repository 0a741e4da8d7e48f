import HybridConfig
public import HybridCore

/// How `hybrid recommend` looks for a hedge delay (`--hedge`): the delays to try and the caps a delay must keep.
///
/// Three caps, each with its one meaning on its property. By default the mean-cost cap follows from the share cap
/// (× the all-cloud cost per request: each raced request costs about one call of the raced model), so the two agree
/// and a delay within the share cap is not refused on cost alone.
public struct HedgeSearch: Sendable, Hashable {
    /// The share of requests a hedge may race when the search is not told otherwise.
    public static let defaultMaxHedgedShare = 0.15

    /// Delays to simulate, in milliseconds; nil: a grid from the route's first model's stored p50 to its p99,
    /// about 10 % apart and at least 10 ms (a bimodal device puts every quantile inside one of its modes).
    public var delaysMs: [Int]?
    /// Tiers the raced model may run on, written into the block; nil: any the privacy class allows.
    public var tiers: [ModelTier]?
    /// The router's per-call cap: the most one raced call may cost by the router's estimate (prices × the prompt's
    /// tokens and the reserved output). Written as `maxExtraCostPerRequestUSD`; the simulation applies it per call.
    public var maxExtraCostPerRequestUSD: Double?
    /// The mean-cost cap: the most a delay may add to the mean cost per request over the run. Not written (the
    /// router cannot enforce a mean); nil: the share cap × the all-cloud cost per request.
    public var maxMeanExtraCostUSD: Double?
    /// The share cap: the largest share of requests a delay may race; nil: 15 %. Written as `maxHedgedShare`, which
    /// the router enforces per router.
    public var maxHedgedShare: Double?

    /// A search over `delaysMs` (nil: a grid over the stored latencies) under the given caps.
    public init(
        delaysMs: [Int]? = nil, tiers: [ModelTier]? = nil, maxExtraCostPerRequestUSD: Double? = nil,
        maxMeanExtraCostUSD: Double? = nil, maxHedgedShare: Double? = nil
    ) {
        self.delaysMs = delaysMs
        self.tiers = tiers
        self.maxExtraCostPerRequestUSD = maxExtraCostPerRequestUSD
        self.maxMeanExtraCostUSD = maxMeanExtraCostUSD
        self.maxHedgedShare = maxHedgedShare
    }

    /// The share cap in force.
    var hedgedShareCap: Double { maxHedgedShare ?? Self.defaultMaxHedgedShare }

    /// The hedge block for a delay, with this search's tiers, per-call cap and share cap: the caps the simulation
    /// used, so the router races what was simulated and no more.
    func config(afterMs: Int) -> HedgeConfig {
        HedgeConfig(afterMs: afterMs, tiers: tiers, maxExtraCostPerRequestUSD: maxExtraCostPerRequestUSD, maxHedgedShare: hedgedShareCap)
    }
}

/// The hedge delay proposed for a feature's route: the delay with the lowest simulated p95 among those meeting the
/// policy's floors and the hedge's caps, with the route's figures unhedged and hedged.
public struct HedgeRecommendation: Sendable {
    /// One simulated delay and whether it qualified.
    public struct Candidate: Sendable {
        /// The delay, in milliseconds.
        public var afterMs: Int
        /// The route's figures hedged after this delay.
        public var result: SimulationResult
        /// Mean dollars per request above the unhedged route.
        public var extraCostPerRequestUSD: Double
        /// Why it does not qualify; empty when it does.
        public var failures: [String]
    }

    /// The delay written into `routing.hedge.afterMs`; nil when no delay qualified (no hedge is written).
    public var afterMs: Int?
    /// The route unhedged.
    public var unhedged: SimulationResult
    /// Every delay simulated, shortest first.
    public var candidates: [Candidate]
    /// The mean extra cost per request a delay could add, and the all-cloud cost per request it was derived from
    /// (× the share cap; nil when the cap was given).
    public var meanExtraCostCap: Double = .infinity
    public var allCloudCostPerRequestUSD: Double?
    /// The share of requests a delay could hedge.
    public var hedgedShareCap: Double = 1
    /// Whether the best delay's requests are shown faster than unhedged, on cases; nil when no delay qualified.
    public var evidence: String?

    /// The chosen delay's candidate.
    public var chosen: Candidate? { candidates.first { $0.afterMs == afterMs } }

    /// Lines for `hybrid recommend`'s summary.
    var lines: [String] {
        var lines: [String] = []
        let base = unhedged.latency
        if let chosen {
            let hedged = chosen.result.latency
            lines.append("HEDGE after \(chosen.afterMs) ms: p95 \(SimulationResult.ms(base.p95)) → \(SimulationResult.ms(hedged.p95)), "
                + "p99 \(SimulationResult.ms(base.p99)) → \(SimulationResult.ms(hedged.p99)), adherence \(ProportionEstimate.percent(chosen.result.adherence.proportion)), "
                + "extra \(SimulationResult.dollars(chosen.extraCostPerRequestUSD * 1_000))/1k, hedged \(ProportionEstimate.percent(chosen.result.hedge?.hedged.proportion ?? 0))")
        } else if let evidence {
            lines.append("no hedge: the best delay within the floors and caps is \(evidence)")
        } else {
            lines.append("no hedge: no delay lowers p95 within the floors and caps")
        }
        if chosen != nil, let evidence { lines.append("  evidence: \(evidence)") }
        lines.append("  caps: hedged ≤ \(ProportionEstimate.percent(hedgedShareCap)), mean extra ≤ \(SimulationResult.dollars(meanExtraCostCap * 1_000))/1k"
            + (allCloudCostPerRequestUSD.map {
                " (\(ProportionEstimate.percent(hedgedShareCap)) of the all-cloud \(SimulationResult.dollars($0 * 1_000))/1k: a raced request costs about one call)"
            } ?? "")
            + "; \(candidates.count) delays simulated")
        // A grid has dozens of delays: name the ones that failed only when there are few.
        for candidate in candidates where !candidate.failures.isEmpty && candidates.count <= 8 {
            lines.append("  \(candidate.afterMs) ms: " + candidate.failures.joined(separator: "; "))
        }
        return lines
    }
}
