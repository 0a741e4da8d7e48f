import HybridReport

extension Recommender {
    /// The hedge delay for `policy`'s route: every delay of the search is simulated on the same stored run, and
    /// the one with the lowest p95 among those that keep the policy's adherence and cost floors and the hedge's
    /// caps (mean extra cost per request, share hedged) wins; ties go to the longer delay (fewer races). A delay
    /// that does not lower p95 never qualifies.
    func proposeHedge(
        _ search: HedgeSearch, simulator: RouteSimulator, policy: ReplayPolicy, floors: FeatureFloors
    ) throws(RecommendError) -> HedgeRecommendation {
        var plain = policy
        plain.hedge = nil
        let unhedged = try simulator.simulate(plain)
        let delays: [Int]
        if let listed = search.delaysMs { delays = listed } else { delays = try Self.latencyQuantiles(simulator: simulator, policy: plain) }
        var candidates: [HedgeRecommendation.Candidate] = []
        for delay in Set(delays).sorted() where delay > 0 {
            var hedged = plain
            hedged.hedge = search.config(afterMs: delay)
            let result = try simulator.simulate(hedged)
            let extra = (result.costPer1k.mean - unhedged.costPer1k.mean) / 1_000
            candidates.append(HedgeRecommendation.Candidate(
                afterMs: delay, result: result, extraCostPerRequestUSD: extra,
                failures: Self.hedgeFailures(result, extra: extra, unhedged: unhedged, search: search, floors: floors)))
        }
        let best = candidates.filter(\.failures.isEmpty).min { a, b in
            a.result.latency.p95 != b.result.latency.p95 ? a.result.latency.p95 < b.result.latency.p95 : a.afterMs > b.afterMs
        }
        return HedgeRecommendation(afterMs: best?.afterMs, unhedged: unhedged, candidates: candidates)
    }

    /// The floors and caps a hedged simulation misses, worded for the summary.
    static func hedgeFailures(
        _ result: SimulationResult, extra: Double, unhedged: SimulationResult, search: HedgeSearch, floors: FeatureFloors
    ) -> [String] {
        var failures: [String] = []
        if !(result.latency.p95 < unhedged.latency.p95) {
            failures.append("p95 \(SimulationResult.ms(result.latency.p95)) is not below \(SimulationResult.ms(unhedged.latency.p95)) unhedged")
        }
        if let minimum = floors.minAdherenceLower, result.adherence.lower < minimum {
            failures.append("adherence Wilson lower \(ProportionEstimate.percent(result.adherence.lower)) < \(ProportionEstimate.percent(minimum))")
        }
        if let cap = floors.maxCostPer1k, result.costPer1k.mean > cap {
            failures.append("cost \(SimulationResult.dollars(result.costPer1k.mean))/1k > \(SimulationResult.dollars(cap))/1k")
        }
        if let cap = search.maxExtraCostPerRequestUSD, extra > cap {
            failures.append("extra cost \(SimulationResult.dollars(extra)) per request > \(SimulationResult.dollars(cap))")
        }
        if let cap = search.maxHedgedShare, let share = result.hedge?.hedged.proportion, share > cap {
            failures.append("hedged \(ProportionEstimate.percent(share)) of requests > \(ProportionEstimate.percent(cap))")
        }
        return failures
    }

    /// The p50, p75, p90, p95 and p99 of the stored latencies of the route's first model (answers only), to 10 ms.
    static func latencyQuantiles(simulator: RouteSimulator, policy: ReplayPolicy) throws(RecommendError) -> [Int] {
        let (_, arms) = try simulator.resolve(policy)
        guard let first = arms.first,
            let percentiles = Percentiles(simulator.table.outcomes.compactMap { row in row[first].flatMap { $0.failed ? nil : $0.totalMs } })
        else { return [] }
        return [0.5, 0.75, 0.9, 0.95, 0.99].map { Int(((percentiles.quantile($0)) / 10).rounded()) * 10 }.filter { $0 > 0 }
    }
}
