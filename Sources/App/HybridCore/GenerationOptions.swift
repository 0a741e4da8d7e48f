/// Sampling and length settings for one request. Unset fields leave the provider's default.
public struct GenerationOptions: Sendable, Hashable, Codable {
    /// How the next token is chosen.
    public enum Sampling: Sendable, Hashable, Codable {
        /// Always the most likely token (temperature 0 where the provider has no explicit switch).
        case greedy
        /// Nucleus sampling over the smallest set whose probability reaches `p`.
        case topP(Double)
    }

    /// Sampling temperature; nil leaves the provider's default.
    public var temperature: Double?
    /// Upper bound on completion tokens; nil leaves the provider's default (see `ModelCapabilities.maxOutputTokens`).
    public var maxOutputTokens: Int?
    /// How tokens are picked; nil leaves the provider's default.
    public var sampling: Sampling?
    /// Seed for providers that honour one (OpenAI, llama.cpp); results are still not guaranteed identical.
    public var seed: Int?

    /// Creates options; every field left nil keeps the provider's default.
    public init(temperature: Double? = nil, maxOutputTokens: Int? = nil, sampling: Sampling? = nil, seed: Int? = nil) {
        self.temperature = temperature
        self.maxOutputTokens = maxOutputTokens
        self.sampling = sampling
        self.seed = seed
    }
}
