/// The transport app products use when the app injects none (`ModelFactory()`, `Router`'s default models).
///
/// On Apple platforms this is meant to be `URLSessionTransport` (the OS's own HTTP stack, no libcurl in the iOS
/// SDK). The harness never relies on it: the CLI, benchmarks and tests inject `CurlTransport` from HybridCurl.
public enum DefaultHTTPTransport {
    /// The process-wide default transport for this platform.
    public static var shared: any HTTPTransport {
        // SEAM(h11b): becomes `URLSessionTransport.shared` once branch h11b (URLSessionTransport) is merged.
        UnconfiguredHTTPTransport()
    }
}

/// Fails every request with a message naming the fix; stands in until a platform default transport exists.
struct UnconfiguredHTTPTransport: HTTPTransport {
    func execute(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        throw .failed(
            url: URLRedaction.redact(request.url),
            detail: "no default HTTP transport on this platform: pass one (e.g. CurlTransport from HybridCurl)")
    }
}
