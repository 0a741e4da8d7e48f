public import HybridCore

/// Where the router keeps responses for reuse. Keys are content-derived (`RouterCacheKey`), so a changed prompt,
/// variant, model or option never hits an old entry.
///
/// Implementations decide expiry (TTL) and eviction; `response(for:)` must not return expired entries.
public protocol RouterCache: Sendable {
    /// The stored response for `key`, or nil when absent or expired.
    func response(for key: RouterCacheKey) async -> GenerationResponse?
    /// Stores `response` under `key`, replacing any older entry.
    func store(_ response: GenerationResponse, for key: RouterCacheKey) async
}
