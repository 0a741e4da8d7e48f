package import HybridCore

/// How private a feature's input is, which bounds the tiers that may see it.
public enum PrivacyClass: String, Sendable, Hashable, Codable, CaseIterable {
    /// Never leaves the device.
    case sensitive
    /// May go to a cloud the app's owner runs, not to third parties.
    case standard
    /// Any tier.
    case open

    /// The least private tier this class allows.
    package var maximumTier: ModelTier {
        switch self {
        case .sensitive: .onDevice
        case .standard: .privateCloud
        case .open: .thirdParty
        }
    }

    /// Whether a model on `tier` may receive input of this class.
    package func allows(tier: ModelTier) -> Bool { tier <= maximumTier }
}
