/// Adds headers obtained per request, asynchronously, to every request of another transport: an API key read from
/// the keychain when needed, or a short-lived token for the app's own proxy (an App Check–style attestation), so no
/// key has to live in the binary or in an environment variable.
package struct HeaderInjectingTransport: HTTPTransport {
    /// The transport that sends the request.
    let base: any HTTPTransport
    private let headers: @Sendable () async throws -> [String: String]

    /// A transport adding `headers()` (called before each request; a value replaces a header of the same name).
    package init(base: any HTTPTransport, headers: @escaping @Sendable () async throws -> [String: String]) {
        self.base = base
        self.headers = headers
    }

    /// Sends `request` with the provided headers; a failing provider fails the request (no header is guessed).
    package func execute(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        var request = request
        let fields: [String: String]
        do {
            fields = try await headers()
        } catch {
            throw TransportError.failed(url: request.url, detail: "credentials unavailable: \(error)")
        }
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            request.headers.replaceOrAdd(name: name, value: value)
        }
        return try await base.execute(request)
    }
}
