extension VirtualClock {
    /// What a sleeper waits for, which decides who wakes first when two begun at the same instant are due at the
    /// same instant: a replayed call's answer before a router's timer, so an answer arriving exactly at its
    /// timeout or at the hedge time wins, as the simulator counts ties (a call is cut, or hedged, only when slower).
    package enum SleeperKind: Sendable {
        /// A replayed call's end (its stored latency).
        case answer
        /// A router timer: an attempt limit, the deadline or the hedge time.
        case timer

        /// The rank among sleepers due at one instant and begun at one instant; lower wakes first.
        var order: Int {
            switch self {
            case .answer: 0
            case .timer: 1
            }
        }
    }
}
