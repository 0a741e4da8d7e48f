import Synchronization

/// Each feature's requests walked under a hedge share cap (`routing.hedge.maxHedgedShare`) and how many of them
/// raced a second model. One per router by default; the router check hands one to every per-case router of a run,
/// so the cap binds across the run's requests as it does across an app's, while cooldowns stay per case.
package final class HedgeShare: Sendable {
    private let counts = Mutex<[String: (requests: Int, hedged: Int)]>([:])

    package init() {}

    /// Whether the next request of `feature` may hedge: always the first; then while the share hedged so far is
    /// below `cap` (the rule `RouteSimulator` replays, so the simulation and the router agree request by request).
    func allows(_ feature: String, cap: Double) -> Bool {
        counts.withLock { Self.allows($0[feature], cap: cap) }
    }

    /// One more request of `feature` walked under the cap, hedged or not.
    func count(_ feature: String, hedged: Bool) {
        counts.withLock { counts in
            let now = counts[feature] ?? (0, 0)
            counts[feature] = (now.requests + 1, now.hedged + (hedged ? 1 : 0))
        }
    }

    /// The rule on counts, for a shell that keeps its own (the simulator's one pass over a run).
    package static func allows(_ counts: (requests: Int, hedged: Int)?, cap: Double) -> Bool {
        guard let counts, counts.requests > 0 else { return true }
        return Double(counts.hedged) < cap * Double(counts.requests)
    }
}
