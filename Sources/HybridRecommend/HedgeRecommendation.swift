import HybridConfig
public import HybridCore

/// How `hybrid recommend` looks for a hedge delay (`--hedge`): the delays to try and the caps a delay must keep.
public struct HedgeSearch: Sendable, Hashable {
    /// Delays to simulate, in milliseconds; nil: the p50, p75, p90, p95 and p99 of the route's first model's
    /// stored latencies (rounded to 10 ms).
    public var delaysMs: [Int]?
    /// Tiers the raced model may run on, written into the block; nil: any the privacy class allows.
    public var tiers: [ModelTier]?
    /// The most a request may spend on its raced call; a delay whose mean extra cost per request is higher is
    /// refused, and the router applies it to each request's estimate.
    public var maxExtraCostPerRequestUSD: Double?
    /// The largest share of requests a delay may hedge.
    public var maxHedgedShare: Double?

    /// A search over `delaysMs` (nil: from the stored latencies) under the given caps.
    public init(delaysMs: [Int]? = nil, tiers: [ModelTier]? = nil, maxExtraCostPerRequestUSD: Double? = nil, maxHedgedShare: Double? = nil) {
        self.delaysMs = delaysMs
        self.tiers = tiers
        self.maxExtraCostPerRequestUSD = maxExtraCostPerRequestUSD
        self.maxHedgedShare = maxHedgedShare
    }

    /// The hedge block for a delay, with this search's tiers and caps.
    func config(afterMs: Int) -> HedgeConfig {
        HedgeConfig(afterMs: afterMs, tiers: tiers, maxExtraCostPerRequestUSD: maxExtraCostPerRequestUSD, maxHedgedShare: maxHedgedShare)
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
        } else {
            lines.append("no hedge: no delay lowers p95 within the floors and caps")
        }
        for candidate in candidates where !candidate.failures.isEmpty {
            lines.append("  \(candidate.afterMs) ms: " + candidate.failures.joined(separator: "; "))
        }
        return lines
    }
}
