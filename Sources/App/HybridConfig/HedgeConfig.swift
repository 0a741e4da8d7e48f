public import HybridCore

/// A hedged request ("The Tail at Scale", Dean & Barroso 2013): when the model being called has produced no
/// answer (no first text, for progressive streams) `afterMs` after it was called, the router starts the next
/// model of the order alongside it, takes whichever answer passes the feature's checks first and cancels the
/// other. An app that puts the on-device model first then stops paying for that model's slow tail.
///
/// Set in a routing block (`routing.hedge`), replaced as a whole by a feature's own block. Privacy still applies:
/// a feature whose privacy class forbids a tier never races a model of it.
/// ```json
/// "hedge": { "afterMs": 600, "tiers": ["private-cloud", "third-party"], "maxExtraCostPerRequestUSD": 0.002, "maxHedgedShare": 0.1 }
/// ```
public struct HedgeConfig: Sendable, Hashable, Codable {
    /// How long the model being called may go without an answer (or first text) before the next one is started.
    public var afterMs: Int
    /// Tiers the raced model may run on; nil: any tier the feature's privacy class allows.
    public var tiers: [ModelTier]?
    /// The most a raced call may be expected to cost (its pricing over the prompt and the reserved output); a
    /// dearer model is not raced. nil: no cap.
    public var maxExtraCostPerRequestUSD: Double?
    /// The largest share of a feature's requests (0–1] an app may hedge; once reached, requests run unhedged.
    public var maxHedgedShare: Double?

    /// Creates a hedge block; nothing is checked here, `ConfigValidator` does that.
    public init(afterMs: Int, tiers: [ModelTier]? = nil, maxExtraCostPerRequestUSD: Double? = nil, maxHedgedShare: Double? = nil) {
        self.afterMs = afterMs
        self.tiers = tiers
        self.maxExtraCostPerRequestUSD = maxExtraCostPerRequestUSD
        self.maxHedgedShare = maxHedgedShare
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case afterMs, tiers, maxExtraCostPerRequestUSD, maxHedgedShare
    }
}
