package import HybridConfig

extension ModelConfig {
    /// `maxConcurrency`, or the kind's default when it is not set.
    package var effectiveMaxConcurrency: Int { maxConcurrency ?? Self.defaultMaxConcurrency(for: kind) }

    /// Requests in flight per model when the config does not say: the slot count of the local servers the
    /// harness runs (`llama-server` starts with one slot; a second request would only wait in its queue and be
    /// measured as latency), one for on-device runtimes, 16 for hosted APIs, whose per-request latency, not
    /// their capacity, limits an eval.
    static func defaultMaxConcurrency(for kind: ProviderKind) -> Int {
        switch kind {
        case .llamaCpp: 1
        case .appleFoundationModels, .ollama: 1
        case .openAICompatible, .anthropic, .gemini, .applePrivateCloudCompute: 16
        }
    }
}
