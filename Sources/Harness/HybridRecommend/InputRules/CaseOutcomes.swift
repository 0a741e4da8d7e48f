/// What one route gave each case, repeats reduced first (the case is the unit): the pass share, mean cost and mean
/// summed latency of its requests, and the share of them that reached a tier past the device. Columns, so a
/// candidate rule is judged by picking, per case, from two of these.
struct CaseOutcomes: Sendable {
    var adherence: [Double]
    var cost: [Double]
    var latencyMs: [Double]
    var cloud: [Double]
    /// The policy's quality scorer on the served answer (0 for a request that failed or was not scored).
    var quality: [Double]

    init(adherence: [Double] = [], cost: [Double] = [], latencyMs: [Double] = [], cloud: [Double] = [], quality: [Double] = []) {
        self.adherence = adherence
        self.cost = cost
        self.latencyMs = latencyMs
        self.cloud = cloud
        self.quality = quality
    }

    /// Every case of `table` walked along `order` (tier indices): the next tier when a request fails, and with
    /// `cascade` also when its answer fails a check (the device's cost and latency are then paid too).
    init(_ table: InputCaseTable, order: [Int], cascade: Bool) {
        self.init()
        for requests in table.answers {
            var sums = (pass: 0.0, cost: 0.0, latency: 0.0, cloud: 0.0, quality: 0.0)
            for answers in requests {
                let walk = Self.walk(answers, order: order, cascade: cascade)
                sums.pass += walk.passed ? 1 : 0
                sums.cost += walk.cost
                sums.latency += walk.latency
                sums.cloud += walk.cloud ? 1 : 0
                sums.quality += walk.quality
            }
            let n = Double(requests.count)
            adherence.append(sums.pass / n)
            cost.append(sums.cost / n)
            latencyMs.append(sums.latency / n)
            cloud.append(sums.cloud / n)
            quality.append(sums.quality / n)
        }
    }

    /// One request along `order`: what was served, paid and waited for, and whether a tier past the device was asked.
    static func walk(
        _ answers: [InputCaseTable.Answer], order: [Int], cascade: Bool
    ) -> (passed: Bool, cost: Double, latency: Double, cloud: Bool, quality: Double) {
        var cost = 0.0
        var latency = 0.0
        var cloud = false
        for (position, tier) in order.enumerated() {
            let answer = answers[tier]
            cost += answer.costUSD
            latency += answer.latencyMs
            cloud = cloud || tier != 0
            let last = position == order.count - 1
            if answer.failed && !last { continue }
            if cascade && !answer.adherent && !last { continue }
            return (answer.adherent, cost, latency, cloud, answer.failed ? 0 : answer.quality ?? 0)
        }
        return (false, cost, latency, cloud, 0)
    }

    /// Per case, `selected[i] ? onSelected : self` — a rule's outcome from its two sides' routes.
    func picking(_ onSelected: CaseOutcomes, where selected: [Bool]) -> CaseOutcomes {
        var out = self
        for i in selected.indices where selected[i] {
            out.adherence[i] = onSelected.adherence[i]
            out.cost[i] = onSelected.cost[i]
            out.latencyMs[i] = onSelected.latencyMs[i]
            out.cloud[i] = onSelected.cloud[i]
            out.quality[i] = onSelected.quality[i]
        }
        return out
    }

    /// Only the cases at `indices`, in that order.
    func subset(_ indices: [Int]) -> CaseOutcomes {
        CaseOutcomes(
            adherence: indices.map { adherence[$0] }, cost: indices.map { cost[$0] },
            latencyMs: indices.map { latencyMs[$0] }, cloud: indices.map { cloud[$0] }, quality: indices.map { quality[$0] })
    }

    /// Writes `other`'s cases at `indices` (a held-out fold's outcomes) into this one.
    mutating func place(_ other: CaseOutcomes, at indices: [Int]) {
        for (k, i) in indices.enumerated() {
            adherence[i] = other.adherence[k]
            cost[i] = other.cost[k]
            latencyMs[i] = other.latencyMs[k]
            cloud[i] = other.cloud[k]
            quality[i] = other.quality[k]
        }
    }
}
