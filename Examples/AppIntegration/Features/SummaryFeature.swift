// The example app's feature code. It imports only the products an iPhone, iPad or Mac app links (HybridCore,
// HybridConfig, HybridProviders, HybridRouter, HybridTransport): no libcurl, no SQLite, no child processes. Which models exist, and over which
// transport, is decided by the app target (`App/main.swift`), the way a Mac app would register its own runtime.
public import Foundation
public import HybridConfig
public import HybridCore
public import HybridProviders
public import HybridRouter
public import HybridTransport

/// What the app's contact card shows, decoded from the `extract` feature's answer; its schema goes to every model.
public struct Contact: StructuredOutput {
    public var name: String
    public var company: String
    public var email: String?
    public var topics: [String]
    public static let guides: [String: JSONValue] = ["topics": ["description": "What the person works on, a few words each"]]
}

/// The "summarize" feature as an app embeds it: config with a file-backed last-known-good cache, a router with a
/// file-backed spend ledger, one call per feature, and a prewarm when the screen appears.
public struct SummaryFeature: Sendable {
    /// The config in force (the shipped ``AppConfig``, then the cached or fetched remote copy).
    public let loader: ConfigLoader
    /// The router every call goes through.
    public let router: Router

    /// Loads the config (last-known-good from `storage`) and builds the router.
    ///
    /// - Parameters:
    ///   - models: the app's model factory (the local model kind if the app ships one).
    ///   - transport: the HTTP client the remote config is fetched with (the one the factory's models use).
    ///   - storage: a directory the app owns, such as Application Support; holds the config cache and spend ledger.
    ///   - installId: stable per install; picks the rollout arm.
    ///   - configURL: the remote config, nil for the shipped config only.
    public static func start(
        models: ModelFactory, transport: any HTTPTransport, storage: URL, installId: String, configURL: String? = nil
    ) async throws -> SummaryFeature {
        let loader = ConfigLoader(
            bundled: try AppConfig.bundled(), sourceURL: configURL,
            fetcher: configURL.map { _ in ConfigFetcher(transport: transport) },
            cacheFile: storage.appendingPathComponent("config-cache.json"))
        await loader.start()
        // A fetched config whose extract schema would break `Contact` is refused; the one in force stays.
        await loader.requireOutput(Contact.self, forFeature: "extract")
        let router = try Router(
            config: .loader(loader), models: .modelFactory(models), installId: installId,
            spendLedger: FileSpendLedger(url: storage.appendingPathComponent("spend.json")),
            cache: InMemoryRouterCache(capacity: 64, ttl: .seconds(300)),
            policy: RouterDefaults(minimumInputCharacters: ["summarize": 40]))
        return SummaryFeature(loader: loader, router: router)
    }

    /// Starts the model that would serve, so the first summary does not pay for it; returns its id.
    public func prewarm() async -> String? {
        try? await router.prewarm(feature: "summarize")
    }

    /// The summary of `text`: the app names the feature and supplies the template variables, nothing model-specific.
    public func summarize(_ text: String) async throws(RouterError) -> RoutedResponse {
        try await router.generate(feature: "summarize", input: ["input": text])
    }

    /// The contact in `text`, as a typed value: a model whose answer does not decode hands over to the next.
    public func contact(in text: String) async throws(RouterError) -> RoutedValue<Contact> {
        try await router.generate(feature: "extract", input: ["input": text], generating: Contact.self)
    }
}
