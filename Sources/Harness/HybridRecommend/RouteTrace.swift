/// Per-request outcomes of one simulated policy, aligned on the table's cases: the raw material of every figure
/// and of paired comparisons between routes.
struct RouteTrace: Sendable {
    /// The order's arms, as indices into the table's arms.
    var arms: [Int]
    /// Table case indices that had a result on every arm the walk reached.
    var cases: [Int] = []
    /// Position in `arms` of the arm that served each case; nil when no arm passed the conditions.
    var served: [Int?] = []
    /// Position in `arms` of the arm whose answer the user got (the server, or the best failing answer).
    var delivered: [Int?] = []
    var attempts: [Int] = []
    var latencyMs: [Double] = []
    var costUSD: [Double] = []
    /// The output the user got passed every constraint.
    var adherent: [Bool] = []
    /// `quality[scorer][i]`: the score of what case `cases[i]` got; 0 when it got nothing; nil when unscored.
    var quality: [[Double?]]
    var incompleteCases = 0
    var timedOutAttempts = 0
    var unpricedAttempts = 0
    var cacheHitAttempts = 0
    /// Per request: the position raced by its hedge, and that call's cost; nil: not hedged.
    var hedged: [(position: Int, costUSD: Double)?] = []

    init(arms: [Int], scorerCount: Int) {
        self.arms = arms
        self.quality = Array(repeating: [], count: scorerCount)
    }

    var count: Int { cases.count }

    mutating func append(_ walk: CaseWalk, caseIndex: Int, scorerCount: Int) {
        cases.append(caseIndex)
        served.append(walk.served)
        delivered.append(walk.delivered?.position)
        attempts.append(walk.attempts)
        latencyMs.append(walk.latencyMs)
        costUSD.append(walk.costUSD)
        // Adherent only when what the user got passed every check; a failing best answer never does.
        adherent.append(walk.delivered.map { $0.outcome.adherent != false } ?? false)
        for scorer in 0..<scorerCount {
            quality[scorer].append(walk.delivered.map { $0.outcome.score(scorer) } ?? 0)
        }
        hedged.append(walk.hedge)
        timedOutAttempts += walk.timedOut
        unpricedAttempts += walk.unpriced
        cacheHitAttempts += walk.cacheHits
    }

    /// Cheap point figures for ranking candidates before any interval is computed.
    var meanCost: Double { costUSD.isEmpty ? .nan : costUSD.reduce(0, +) / Double(costUSD.count) }
    var p95: Double { percentile(0.95) }

    func percentile(_ q: Double) -> Double {
        let sorted = latencyMs.sorted()
        guard !sorted.isEmpty else { return .nan }
        let h = Double(sorted.count - 1) * q
        let low = Int(h.rounded(.down))
        let fraction = h - Double(low)
        guard fraction > 0, low + 1 < sorted.count else { return sorted[low] }
        return sorted[low] + fraction * (sorted[low + 1] - sorted[low])
    }
}

/// What a trace serves per case, for telling routes apart: two orders that differ only in fallbacks never reached
/// serve every case alike and are one candidate to test, not two.
struct TraceSignature: Hashable {
    var cases: [Int]
    var latencyMs: [Double]
    var costUSD: [Double]
    var adherent: [Bool]
    var quality: [[Double?]]

    init(_ trace: RouteTrace) {
        cases = trace.cases
        latencyMs = trace.latencyMs
        costUSD = trace.costUSD
        adherent = trace.adherent
        quality = trace.quality
    }
}
