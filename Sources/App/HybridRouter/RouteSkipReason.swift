public import HybridConfig
public import HybridCore

/// Why the router passed over a model without calling it.
public enum RouteSkipReason: Sendable, Hashable, CustomStringConvertible {
    /// The priority order names a model that neither the config nor the model provider knows.
    case unknownModel
    /// The model said it cannot serve now.
    case unavailable(UnavailabilityReason)
    /// The model's tier is beyond what the privacy class allows.
    case privacy(tier: ModelTier, privacy: PrivacyClass)
    /// This month's spend on the feature's metered models has reached the feature's cap.
    case overBudget(spentUSD: Double, capUSD: Double)
    /// The spend ledger could not be read, so a metered model was not risked.
    case budgetUnknown(String)
    /// The model refused for rate or quota recently; it rests for `remaining` more.
    case coolingDown(remaining: Duration)
    /// The estimated prompt plus reserved output does not fit the model's context window.
    case contextWindowTooSmall(neededTokens: Int, window: Int)
    /// An earlier model reported its window exceeded; only models with a larger window are tried after it.
    case windowNotLarger(window: Int, mustExceed: Int)

    public var description: String {
        switch self {
        case .unknownModel:
            "not declared in the config's models (or not given to the router)"
        case .unavailable(let reason):
            "unavailable: \(reason.message)"
        case .privacy(let tier, let privacy):
            "tier \(tier.rawValue) is not allowed for \(privacy.rawValue) input (allowed up to \(privacy.maximumTier.rawValue))"
        case .overBudget(let spent, let cap):
            "monthly budget reached: \(Self.usd(spent)) spent of \(Self.usd(cap)); raise monthlyBudgetUSD or wait for next month"
        case .budgetUnknown(let detail):
            "spend ledger unreadable (\(detail)); metered model not used"
        case .coolingDown(let remaining):
            "rate limited recently; cooling down for \(Int(remaining.milliseconds.rounded(.up))) ms more"
        case .contextWindowTooSmall(let needed, let window):
            "prompt needs about \(needed) tokens, window is \(window); shorten the input or enable truncation"
        case .windowNotLarger(let window, let mustExceed):
            "window \(window) is not larger than \(mustExceed), which was already exceeded"
        }
    }

    private static func usd(_ value: Double) -> String {
        "$" + String((value * 10_000).rounded() / 10_000)
    }
}
