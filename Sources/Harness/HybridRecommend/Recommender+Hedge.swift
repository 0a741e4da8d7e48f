import HybridReport

extension Recommender {
    /// The hedge delay for `policy`'s route: every delay of the search is simulated on the same stored run, and
    /// those that keep the policy's adherence and cost floors and the hedge's caps (``HedgeSearch``) qualify, the
    /// max-T test (``hedgeEvidence``) says which of them are shown to make requests faster on cases, and the one of
    /// those with the lowest p95 wins; ties go to the longer delay (fewer races). A delay that does not lower p95
    /// never qualifies.
    func proposeHedge(
        _ search: HedgeSearch, simulator: RouteSimulator, policy: ReplayPolicy, floors: FeatureFloors
    ) throws(RecommendError) -> HedgeRecommendation {
        var plain = policy
        plain.hedge = nil
        let unhedged = try simulator.simulate(plain)
        let delays: [Int]
        if let listed = search.delaysMs { delays = listed } else { delays = try Self.delayGrid(simulator: simulator, policy: plain) }
        var search = search
        let allCloud = search.maxMeanExtraCostUSD == nil ? try Self.allCloudCost(simulator: simulator, policy: plain) : nil
        search.maxMeanExtraCostUSD = search.maxMeanExtraCostUSD ?? (allCloud ?? 0) * search.hedgedShareCap
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
        let qualified = candidates.filter(\.failures.isEmpty)
        let shown = qualified.isEmpty
            ? nil : try Self.hedgeEvidence(simulator: simulator, plain: plain, search: search, delays: qualified.map(\.afterMs))
        // The max-T test holds the family-wise error over every qualified delay at once, so the p95 rule may pick
        // among the delays it shows faster: choosing after the test costs nothing, and a delay that races fast
        // requests under the share cap (leaving slow ones unraced) no longer hides one that races the slow ones.
        let pool = qualified.filter { shown?.passed.contains($0.afterMs) == true }
        let best = (pool.isEmpty ? qualified : pool).min(by: Self.lowerP95)
        let chosen = pool.isEmpty ? nil : best?.afterMs
        let evidence = best.flatMap { shown?.text(for: $0.afterMs) }
        var recommendation = HedgeRecommendation(afterMs: chosen, unhedged: unhedged, candidates: candidates)
        recommendation.evidence = evidence
        recommendation.meanExtraCostCap = search.maxMeanExtraCostUSD ?? .infinity
        recommendation.allCloudCostPerRequestUSD = allCloud
        recommendation.hedgedShareCap = search.hedgedShareCap
        return recommendation
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
        if let cap = search.maxMeanExtraCostUSD, extra > cap + 1e-12 * max(1, abs(cap)) {
            failures.append("mean extra cost \(SimulationResult.dollars(extra)) per request > \(SimulationResult.dollars(cap))")
        }
        if let share = result.hedge?.hedged.proportion, share > search.hedgedShareCap {
            failures.append("hedged \(ProportionEstimate.percent(share)) of requests > \(ProportionEstimate.percent(search.hedgedShareCap))")
        }
        return failures
    }

    /// The delays of `delays` shown to make requests faster than `plain` per case, and each one's line: the
    /// single-step max-T sign-flip test (``PairedSignFlipMaxT``) of the per-case latency saved (repeats averaged)
    /// over every delay in `delays`, one-sided, its adjusted p below 0.05. The delays share their cases, so a
    /// Bonferroni factor of their count would pay for independent chances they do not have; the max-T keeps their
    /// correlation and bounds the chance that any delay is shown falsely, so any rule may choose among those shown.
    static func hedgeEvidence(
        simulator: RouteSimulator, plain: ReplayPolicy, search: HedgeSearch, delays: [Int]
    ) throws(RecommendError) -> HedgeEvidence {
        let (_, arms) = try simulator.resolve(plain)
        let before = try simulator.trace(arms: arms, policy: plain)
        var savings: [[Double]] = []
        for delay in delays {
            var hedged = plain
            hedged.hedge = search.config(afterMs: delay)
            let after = try simulator.trace(arms: arms, policy: hedged)
            let (slow, fast) = TraceCases.paired(
                (before, before.latencyMs.map { Optional($0) }), (after, after.latencyMs.map { Optional($0) }), table: simulator.table)
            savings.append(zip(slow, fast).map { $0 - $1 })
        }
        let test = PairedSignFlipMaxT(differences: savings, configuration: simulator.bootstrap)
        return HedgeEvidence(delays: delays, savings: savings, adjustedPValues: test?.adjustedPValues ?? delays.map { _ in 1 })
    }

    /// What the max-T test said of each qualified delay.
    struct HedgeEvidence {
        var delays: [Int]
        var savings: [[Double]]
        var adjustedPValues: [Double]

        /// The delays whose adjusted p is below 0.05.
        var passed: Set<Int> { Set(zip(delays, adjustedPValues).filter { $0.1 < 0.05 }.map(\.0)) }

        /// The summary's line for `delay`: how many cases it saves time on and its adjusted p.
        func text(for delay: Int) -> String {
            let index = delays.firstIndex(of: delay) ?? 0
            let p = adjustedPValues.indices.contains(index) ? adjustedPValues[index] : 1
            let saved = savings.indices.contains(index) ? savings[index] : []
            let text = String(
                format: "%d of %d cases faster with the hedge; max-T over %d %@, one-sided p %.3g",
                saved.filter { $0 > 0 }.count, saved.count, delays.count, delays.count == 1 ? "delay" : "delays", p)
            return p < 0.05 ? text : "not shown: " + text
        }
    }

    /// The order of the p95 rule: lower p95 first, ties to the longer delay (fewer races).
    static func lowerP95(_ a: HedgeRecommendation.Candidate, _ b: HedgeRecommendation.Candidate) -> Bool {
        a.result.latency.p95 != b.result.latency.p95 ? a.result.latency.p95 < b.result.latency.p95 : a.afterMs > b.afterMs
    }

    /// Delays from the stored p50 of the route's first model (answers only) to its p99, each about 10 % (and at
    /// least 10 ms) after the last, rounded to 10 ms: a device that is fast nine times in ten and slow otherwise has
    /// every quantile inside one of its two modes, and the delay worth racing after lies between them.
    static func delayGrid(simulator: RouteSimulator, policy: ReplayPolicy) throws(RecommendError) -> [Int] {
        let (_, arms) = try simulator.resolve(policy)
        guard let first = arms.first,
            let percentiles = Percentiles(simulator.table.outcomes.compactMap { row in row[first].flatMap { $0.failed ? nil : $0.totalMs } })
        else { return [] }
        let low = max(10, percentiles.quantile(0.5)), high = percentiles.quantile(0.99)
        var delays: [Int] = []
        var delay = low
        while delay <= high && delays.count < 200 {
            delays.append(Int((delay / 10).rounded()) * 10)
            delay = max(delay * 1.1, delay + 10)
        }
        delays.append(Int((high / 10).rounded()) * 10)
        return Array(Set(delays.filter { $0 > 0 })).sorted()
    }

    /// The mean cost per request with every request sent to the model a hedge races (the route's second): what one
    /// raced call costs on average, so the default mean-cost cap is it × the share cap; 0 when the route has one model.
    static func allCloudCost(simulator: RouteSimulator, policy: ReplayPolicy) throws(RecommendError) -> Double {
        guard policy.order.count > 1 else { return 0 }
        var cloud = policy
        cloud.order = [policy.order[1]]
        cloud.hedge = nil
        return try simulator.simulate(cloud).costPer1k.mean / 1_000
    }
}
