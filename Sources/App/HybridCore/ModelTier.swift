/// Where a model runs, ordered from most private to least private.
///
/// The order matters: privacy classes allow "up to" a tier, and the router compares tiers with `<`.
public enum ModelTier: String, Sendable, Codable, CaseIterable, Comparable {
    /// On the user's device (Apple Foundation Models, an embedded llama.cpp server on loopback).
    case onDevice = "on-device"
    /// A cloud the app's owner runs (vLLM or llama.cpp on their own servers).
    case privateCloud = "private-cloud"
    /// A third-party API (OpenAI, Anthropic, Gemini).
    case thirdParty = "third-party"

    private var rank: Int {
        switch self {
        case .onDevice: 0
        case .privateCloud: 1
        case .thirdParty: 2
        }
    }

    public static func < (lhs: ModelTier, rhs: ModelTier) -> Bool { lhs.rank < rhs.rank }
}
