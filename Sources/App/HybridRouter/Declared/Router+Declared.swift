public import Foundation
public import HybridConfig
public import HybridCore
import HybridTransport

extension Router {
    /// A router over models declared in Swift, tried in this order: no config file needed.
    ///
    /// The declaration is a config document (``ModelChoice/document(_:instructions:)``): with `configURL`, a config
    /// fetched from there (ETag, validation, last-known-good) replaces it as soon as it arrives, so prompts, the
    /// order, routing and rollouts can change without an app update; the declared credentials still apply to the
    /// models of the same id.
    ///
    /// - Parameters:
    ///   - configOptions: how the fetched config is checked and kept fresh. By default a conditional fetch begins
    ///     in the background every hour from the first request on (`refreshInterval`), so a long-running process
    ///     follows the remote config; the first requests do not wait for the first fetch unless `firstFetchWait`
    ///     says how long to. A fetched config serves the first request that starts after its fetch ended.
    ///   - installId: the install's stable id (rollout arms and field statistics count installs); nil: the one
    ///     kept in `stateDirectory`, created on the first launch.
    ///   - stateDirectory: where the install id and the last good copy of the fetched config are kept across
    ///     launches, so a relaunch keeps its rollout arm and, offline, the config it last fetched. nil keeps
    ///     nothing: a new install id per launch (unless given) and the declared models until a fetch succeeds.
    public convenience init(
        models: [ModelChoice], instructions: String? = nil,
        options: FeatureGenerationOptions = FeatureGenerationOptions(maxOutputTokens: 1_024), configURL: String? = nil,
        configOptions: ConfigLoader.Options = ConfigLoader.Options(refreshInterval: .seconds(3_600)),
        installId: String? = nil, stateDirectory: URL? = Router.defaultStateDirectory, cache: (any RouterCache)? = nil,
        policy: RouterDefaults = RouterDefaults(), eventSink: (any RouteEventSink)? = nil, eventLabels: [String: String] = [:]
    ) throws(ConfigError) {
        try ConfigValidator.validate(appRouting: policy.routing)
        let validated = try ConfigValidator.validate(
            ModelChoice.document(models, instructions: instructions, options: options))
        let state = stateDirectory.map(InstallState.init)
        let source: RouterConfigSource
        if let configURL {
            let loader = ConfigLoader(
                bundled: validated, sourceURL: configURL, fetcher: ConfigFetcher(transport: URLSessionTransport.shared),
                cacheFile: state?.configCacheFile, options: configOptions)
            Task { await loader.refresh() }  // in the background; `refreshConfig()` awaits one
            source = .loader(loader)
        } else {
            source = .fixed(validated.document)
        }
        // Validated above, with the app's routing (and a loader validates what it fetches): not a second time.
        self.init(
            unvalidated: source, models: ModelChoice.provider(models),
            installId: installId ?? state?.installId() ?? UUID().uuidString, cache: cache, policy: policy,
            eventSink: eventSink, eventLabels: eventLabels)
    }

    /// Where a declared router keeps its install id and last good config unless told otherwise (`stateDirectory`):
    /// Application Support/HybridAI on Apple platforms, `$XDG_DATA_HOME/hybridai` (else `~/.local/share/hybridai`) on
    /// Linux.
    public static var defaultStateDirectory: URL? { InstallState.defaultDirectory() }

    /// Fetches the remote config now (ETag, validation, last-known-good), when the router reads one through a
    /// `ConfigLoader` (``init(models:instructions:options:configURL:configOptions:installId:stateDirectory:cache:policy:eventSink:eventLabels:)``
    /// with a `configURL`, or `config: .loader(…)`): call it when the app comes to the foreground. nil for a fixed
    /// config.
    @discardableResult
    public func refreshConfig() async -> ConfigResolution? {
        guard case .loader(let loader) = configSource else { return nil }
        return await loader.refresh()
    }

    /// The answer to `prompt` from the first declared model that serves (the `respond` feature).
    public func respond(to prompt: String) async throws(RouterError) -> RoutedResponse {
        try await generate(feature: ModelChoice.respondFeature, input: ["input": prompt])
    }

    /// The answer to `prompt` decoded into `type`, from the first model whose answer decodes.
    public func respond<T: StructuredOutput>(to prompt: String, generating type: T.Type) async throws(RouterError)
        -> RoutedValue<T>
    {
        try await generate(feature: ModelChoice.respondFeature, input: ["input": prompt], generating: type)
    }

    /// The answer to `prompt` as it is generated, decoded into `type` step by step (see ``PartialSnapshot``).
    public func streamResponse<T: StructuredOutput>(to prompt: String, generating type: T.Type)
        -> RouterStream<PartialSnapshot<T>>
    {
        streamResponse(feature: ModelChoice.respondFeature, input: ["input": prompt], generating: type)
    }
}
