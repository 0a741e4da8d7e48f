import HybridReport

/// What a hedge did over a simulated run: how many requests it raced, which model's answer won those races, and
/// what the raced calls cost. The raced call is charged in full whether it won or was cancelled (an upper bound:
/// a cancelled call may be billed for less).
public struct HedgeFigures: Sendable {
    /// The hedge delay simulated, in milliseconds.
    public var afterMs: Int
    /// Requests whose hedge started a second call.
    public var hedged: ProportionEstimate
    /// Among hedged requests, the share each model served (in the order's order; models that served none left out).
    public var winsByModel: [ServedShare]
    /// Dollars per 1,000 requests spent on raced calls.
    public var racedCostPer1k: Double

    init(afterMs: Int, trace: RouteTrace, table: RunOutcomeTable, units: TraceCases) {
        self.afterMs = afterMs
        hedged = units.proportion(trace.hedged.map { $0 != nil }, reducer: .mean)
        let racedCost = trace.hedged.reduce(0.0) { $0 + ($1?.costUSD ?? 0) }
        racedCostPer1k = trace.count == 0 ? .nan : racedCost / Double(trace.count) * 1_000
        let hedgedServed = trace.hedged.indices.filter { trace.hedged[$0] != nil }.map { trace.served[$0] }
        var seen: Set<String> = []
        winsByModel = trace.arms.compactMap { armIndex -> ServedShare? in
            let model = table.arms[armIndex].modelID
            guard seen.insert(model).inserted else { return nil }
            let wins = hedgedServed.filter { served in served.map { table.arms[trace.arms[$0]].modelID == model } ?? false }.count
            guard wins > 0 else { return nil }
            return ServedShare(label: model, share: ProportionEstimate(successes: wins, trials: hedgedServed.count))
        }
    }

    /// The figures as lines of `hybrid simulate`'s output.
    var lines: [String] {
        let wins = winsByModel.map { "\($0.label) \(ProportionEstimate.percent($0.share.proportion))" }.joined(separator: ", ")
        return [
            "hedge after \(afterMs) ms: hedged \(hedged)",
            "  races won by: \(wins.isEmpty ? "none" : wins)",
            "  raced calls cost per 1,000 requests: \(SimulationResult.dollars(racedCostPer1k))",
        ]
    }
}
