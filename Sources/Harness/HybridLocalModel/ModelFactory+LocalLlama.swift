import HybridConfig
public import HybridCore
public import HybridProviders

extension ModelFactory {
    /// This factory with `kind: llama-cpp` models served by `LocalLlamaModel` (a llama-server child process).
    ///
    /// The harness, the CLI, the tests and Mac apps that ship llama.cpp call this; iOS apps cannot start processes
    /// and leave the kind unregistered, so such models are listed as unavailable with the reason.
    /// - Parameter installation: where llama-server and the weights are; by default `LocalModelInstallation.discover()`.
    public func withLocalLlama(
        _ installation: Result<LocalModelInstallation, UnavailabilityReason> = LocalModelInstallation.discover()
    ) -> ModelFactory {
        registering(.llamaCpp) { id, config, transport in
            LocalLlamaModel(
                id: id, displayName: config.displayName ?? id, tier: config.tier, installation: installation,
                contextSize: config.contextWindow, maxOutputTokens: config.maxOutputTokens, transport: transport)
        }
    }
}
