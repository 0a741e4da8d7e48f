public import HybridConfig

/// Where the router reads the config in force, on every request.
public enum RouterConfigSource: Sendable {
    /// One document for the router's lifetime (tests, apps without remote config).
    case fixed(HybridConfigDocument)
    /// The loader's `current` config, read at the start of every request, so a refreshed config (new prompt,
    /// new priority order, new rollout) takes effect at the next request without rebuilding the router.
    case loader(ConfigLoader)

    /// This source with a fixed document validated (and its template files inlined); a loader as it is, since it
    /// validates what it fetches.
    func validated() throws(ConfigError) -> RouterConfigSource {
        guard case .fixed(let document) = self else { return self }
        return .fixed(try ConfigValidator.validate(document).document)
    }

    /// The document to route this request with.
    func document() async -> HybridConfigDocument {
        switch self {
        case .fixed(let document): document
        case .loader(let loader): await loader.start().config  // the last-known-good copy is read once, before the first request
        }
    }
}
