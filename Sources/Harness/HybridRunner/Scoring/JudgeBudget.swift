/// A cap on what a judging pass may spend (`--judge-budget USD`), shared by every concurrent judge call.
///
/// A call reserves its worst case (prompt characters as tokens at the input price, `maxOutputTokens` at the output
/// price) before it is sent and settles at its real cost after, so concurrent calls can never overrun the cap
/// together; a call that does not fit is not sent.
public actor JudgeBudget {
    /// The cap in US dollars.
    public nonisolated let limitUSD: Double
    /// Dollars settled so far.
    public private(set) var spentUSD = 0.0
    /// Calls not sent because they did not fit.
    public private(set) var refusedCalls = 0
    private var reservedUSD = 0.0

    /// A budget of `limitUSD` dollars.
    public init(limitUSD: Double) {
        self.limitUSD = limitUSD
    }

    /// Reserves `worstCaseUSD`; false (and counted) when it would take the pass beyond the cap.
    func reserve(_ worstCaseUSD: Double) -> Bool {
        guard spentUSD + reservedUSD + worstCaseUSD <= limitUSD else {
            refusedCalls += 1
            return false
        }
        reservedUSD += worstCaseUSD
        return true
    }

    /// Replaces a reservation by what the call really cost (0 when it failed before being billed).
    func settle(reserved: Double, actualUSD: Double) {
        reservedUSD -= reserved
        spentUSD += actualUSD
    }
}
