public import HybridCore
public import HybridTransport

/// What every HTTP provider's configuration has, so that one `HTTPLanguageModel` serves them all.
///
/// Each provider keeps its own configuration type (`AnthropicModelConfiguration`, `OllamaModelConfiguration`…):
/// their defaults and extra fields differ, and callers write them as `AnthropicModel.Configuration(…)`. The API key
/// is never stored in one: `apiKeyVariable` names the environment variable that holds it.
public protocol HTTPModelConfiguration: Sendable, Equatable {
    /// Stable id.
    var id: String { get }
    /// Human-readable name for listings.
    var displayName: String { get }
    /// Where the model runs.
    var tier: ModelTier { get }
    /// The API or server root the provider's paths are appended to.
    var baseURL: String { get }
    /// Name of the environment variable holding the key, or nil when the endpoint needs none.
    var apiKeyVariable: String? { get }
    /// What the model can do; `streaming: false` makes `stream` use the non-streaming call.
    var capabilities: ModelCapabilities { get }
    /// Transfer time limits; a request's deadline can only shorten them.
    var timeouts: HTTPTimeouts { get }
    /// Responses (and whole streams) longer than this fail instead of growing memory without bound.
    var maxResponseBytes: Int { get }
    /// The provider's wire format, which the model sends and reads requests in.
    var wireFormat: HTTPWireFormat { get }
    /// The label of the logger a model gets when its creator passes none.
    static var loggerLabel: String { get }
}

extension HTTPModelConfiguration {
    /// `baseURL` followed by `path`, without the doubled slash a configured trailing one would make.
    func url(appending path: String) -> String {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        return base + path
    }
}
