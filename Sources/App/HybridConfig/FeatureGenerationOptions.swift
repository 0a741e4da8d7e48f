import HybridCore

/// Generation settings as a config spells them (flat keys, JSON-friendly).
public struct FeatureGenerationOptions: Sendable, Hashable, Codable {
    /// Sampling temperature, 0–2.
    public var temperature: Double?
    /// Cap on generated tokens.
    public var maxOutputTokens: Int?
    /// Nucleus sampling mass, in (0, 1].
    public var topP: Double?
    /// Seed for providers that honour one.
    public var seed: Int?

    /// Creates options; nil fields leave the provider's default.
    public init(temperature: Double? = nil, maxOutputTokens: Int? = nil, topP: Double? = nil, seed: Int? = nil) {
        self.temperature = temperature
        self.maxOutputTokens = maxOutputTokens
        self.topP = topP
        self.seed = seed
    }

    /// The options in the core request type.
    var generationOptions: GenerationOptions {
        GenerationOptions(
            temperature: temperature,
            maxOutputTokens: maxOutputTokens,
            sampling: topP.map { .topP($0) },
            seed: seed
        )
    }
}
