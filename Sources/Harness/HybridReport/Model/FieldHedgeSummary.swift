/// What hedged requests did in one arm of a field run: how often a second model was raced, whose answer was
/// returned, and what hedging added to the bill.
public struct FieldHedgeSummary: Sendable, Hashable, Codable {
    /// Requests that raced a second model.
    public var hedged: Int
    /// Requests of the arm.
    public var events: Int
    /// Hedged requests by the model that served them ("none" when none did).
    public var winsByModel: [String: Int]
    /// Dollars per 1,000 requests of the arm that hedged requests cost above the arm's unhedged requests' mean (an
    /// estimate of the hedge's extra cost: what a hedged request would have cost unhedged is not observed).
    public var extraCostPer1000: Double

    /// A summary; see the properties.
    public init(hedged: Int, events: Int, winsByModel: [String: Int], extraCostPer1000: Double) {
        self.hedged = hedged
        self.events = events
        self.winsByModel = winsByModel
        self.extraCostPer1000 = extraCostPer1000
    }

    /// Share of requests hedged.
    public var rate: Double { events == 0 ? 0 : Double(hedged) / Double(events) }
}
