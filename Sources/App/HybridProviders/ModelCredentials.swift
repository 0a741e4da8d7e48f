import HybridConfig
import HybridTransport

/// Where one model's credentials come from, for an app: a key passed in code, a key read when needed (the
/// keychain), an environment variable (the harness, a server), or the headers of the app's own proxy (a short-lived
/// token in place of any third-party key). Keys never enter a config document; the config names the model only.
public struct ModelCredentials: Sendable {
    enum Source: Sendable {
        case key(@Sendable () async throws -> String)
        case environment(String)
        case headers(@Sendable () async throws -> [String: String])
        case none
    }

    let source: Source

    /// A key held in memory (read from your secure storage at start-up, or entered by the user).
    public static func key(_ key: String) -> ModelCredentials { ModelCredentials(source: .key { key }) }

    /// A key read before each request, e.g. from the keychain; a throw fails that request with a transport error.
    public static func key(provider: @escaping @Sendable () async throws -> String) -> ModelCredentials {
        ModelCredentials(source: .key(provider))
    }

    /// A key in an environment variable (the harness, servers, tests; apps have none).
    public static func environment(_ name: String) -> ModelCredentials { ModelCredentials(source: .environment(name)) }

    /// The app's own backend or proxy: these headers on every request (a short-lived token, an App Check token),
    /// and no provider key; point the model's `baseURL` at the proxy.
    public static func proxy(headers: @escaping @Sendable () async throws -> [String: String]) -> ModelCredentials {
        ModelCredentials(source: .headers(headers))
    }

    /// No credentials (a local server).
    public static let none = ModelCredentials(source: .none)

    /// The environment variable named by ``environment(_:)``, which the adapter reads itself; nil for every other
    /// source (those travel as headers).
    package var environmentVariable: String? {
        if case .environment(let name) = source { return name }
        return nil
    }

    /// `base` with these credentials added as `kind`'s auth header (or the proxy's headers).
    func transport(kind: ProviderKind, base: any HTTPTransport) -> any HTTPTransport {
        switch source {
        case .environment, .none:
            return base
        case .headers(let headers):
            return CredentialedTransport(
                base: HeaderInjectingTransport(base: base, headers: headers),
                keySource: "the headers your app's proxy provider returned (ModelCredentials.proxy)")
        case .key(let read):
            let name = Self.headerName(kind)
            let injecting = HeaderInjectingTransport(base: base) {
                let key = try await read()
                return [name: name == "Authorization" ? "Bearer \(key)" : key]
            }
            return CredentialedTransport(base: injecting, keySource: "the key your app passed in code (ModelCredentials.key)")
        }
    }

    /// Where each API takes its key: Anthropic `x-api-key`, Gemini `x-goog-api-key`, the rest a bearer token.
    static func headerName(_ kind: ProviderKind) -> String {
        switch kind {
        case .anthropic: "x-api-key"
        case .gemini: "x-goog-api-key"
        default: "Authorization"
        }
    }
}
