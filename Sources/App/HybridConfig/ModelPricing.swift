package import HybridCore

/// Prices in US dollars per million tokens.
public struct ModelPricing: Sendable, Hashable, Codable {
    /// Dollars per million prompt tokens.
    public var inputPerMillion: Double
    /// Dollars per million completion tokens.
    public var outputPerMillion: Double
    /// Price of prompt tokens served from the provider's cache; nil when the provider has no discount.
    public var cachedInputPerMillion: Double?

    /// Creates a price list; all prices are US dollars per million tokens.
    public init(inputPerMillion: Double, outputPerMillion: Double, cachedInputPerMillion: Double? = nil) {
        self.inputPerMillion = inputPerMillion
        self.outputPerMillion = outputPerMillion
        self.cachedInputPerMillion = cachedInputPerMillion
    }

    /// Free (on-device) pricing.
    public static let free = ModelPricing(inputPerMillion: 0, outputPerMillion: 0, cachedInputPerMillion: 0)

    /// Cost in dollars of `usage`; cached prompt tokens are billed at the cached price when there is one.
    package func cost(of usage: TokenUsage) -> Double {
        let cached = min(usage.cachedTokens, usage.promptTokens)
        let cachedPrice = cachedInputPerMillion ?? inputPerMillion
        return (Double(usage.promptTokens - cached) * inputPerMillion + Double(cached) * cachedPrice
            + Double(usage.completionTokens) * outputPerMillion) / 1_000_000
    }
}
