public import HybridConfig
public import HybridCore
public import HybridProviders

/// How the router turns a model id from the priority order into a `LanguageModel`.
public struct RouterModelProvider: Sendable {
    let resolve: @Sendable (_ id: String, _ config: ModelConfig?) -> (any LanguageModel)?
    /// Whether the router should keep built models (per id and configuration) instead of asking again.
    let memoize: Bool

    /// Fixed instances by id; ids missing here are skipped as unknown even when the config declares them.
    public static func models(_ models: [String: any LanguageModel]) -> RouterModelProvider {
        RouterModelProvider(resolve: { id, _ in models[id] }, memoize: false)
    }

    /// Models built from their configuration by `make`. The router builds each model once per configuration and
    /// rebuilds it when a config refresh changes that model's entry.
    public static func factory(
        _ make: @escaping @Sendable (_ id: String, _ config: ModelConfig) -> any LanguageModel
    ) -> RouterModelProvider {
        RouterModelProvider(resolve: { id, config in config.map { make(id, $0) } }, memoize: true)
    }

    /// The package's `ModelFactory` (llama.cpp on device, OpenAI-compatible clouds; other kinds report unavailable).
    public static func modelFactory(_ factory: ModelFactory = ModelFactory()) -> RouterModelProvider {
        .factory { id, config in factory.model(id: id, config: config) }
    }
}
