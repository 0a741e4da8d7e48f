/// List prices of well-known hosted models, so a model declared in code without `pricing:` is not silently free.
///
/// Taken from the providers' pricing pages (platform.openai.com/docs/pricing, anthropic.com/pricing,
/// ai.google.dev/gemini-api/docs/pricing) as of ``asOf``, standard tier, text, US dollars per million tokens; not
/// checked since. Prices change: pass `pricing:` to `.openAI(…)`, `.anthropic(…)` or `.gemini(…)` (or set
/// `models.<id>.pricing` in the config) to use your own. A model not listed here, and given no prices, has an unknown
/// cost: `RoutedResponse.totalCostUSD` is nil and a monthly budget over it is refused.
public enum PublishedPrices {
    /// When the table was taken from the providers' pages.
    public static let asOf = "2025-08-01"

    /// The listed prices of `model` served by `kind` (`openai-compatible` reads OpenAI's list), or nil when the table
    /// does not list it. A dated snapshot name
    /// (`gpt-4o-mini-2024-07-18`) or an alias ending in `-latest` finds its family's price.
    public static func price(of model: String, kind: ProviderKind) -> ModelPricing? {
        let table: [String: ModelPricing]
        switch kind {
        case .openAICompatible: table = openAI
        case .anthropic: table = anthropic
        case .gemini: table = gemini
        default: return nil
        }
        if let exact = table[model] { return exact }
        // The longest listed name the model's name starts with, at a '-' boundary (gpt-4o-mini before gpt-4o).
        return table.keys.filter { model.hasPrefix($0 + "-") }.max(by: { $0.count < $1.count }).flatMap { table[$0] }
    }

    private static func p(_ input: Double, _ output: Double, cached: Double? = nil) -> ModelPricing {
        ModelPricing(inputPerMillion: input, outputPerMillion: output, cachedInputPerMillion: cached)
    }

    private static let openAI: [String: ModelPricing] = [
        "gpt-4o": p(2.50, 10.00, cached: 1.25), "gpt-4o-mini": p(0.15, 0.60, cached: 0.075),
        "gpt-4.1": p(2.00, 8.00, cached: 0.50), "gpt-4.1-mini": p(0.40, 1.60, cached: 0.10),
        "gpt-4.1-nano": p(0.10, 0.40, cached: 0.025), "o3": p(2.00, 8.00, cached: 0.50),
        "o4-mini": p(1.10, 4.40, cached: 0.275), "o3-mini": p(1.10, 4.40, cached: 0.55),
    ]
    private static let anthropic: [String: ModelPricing] = [
        "claude-3-5-haiku": p(0.80, 4.00, cached: 0.08), "claude-3-5-sonnet": p(3.00, 15.00, cached: 0.30),
        "claude-3-7-sonnet": p(3.00, 15.00, cached: 0.30), "claude-sonnet-4": p(3.00, 15.00, cached: 0.30),
        "claude-opus-4": p(15.00, 75.00, cached: 1.50), "claude-3-haiku": p(0.25, 1.25, cached: 0.03),
    ]
    private static let gemini: [String: ModelPricing] = [
        "gemini-2.0-flash": p(0.10, 0.40, cached: 0.025), "gemini-2.0-flash-lite": p(0.075, 0.30),
        "gemini-2.5-flash": p(0.30, 2.50, cached: 0.075), "gemini-2.5-flash-lite": p(0.10, 0.40, cached: 0.025),
        "gemini-2.5-pro": p(1.25, 10.00, cached: 0.31),
    ]
}
