/// The transport app products use when the app injects none (`ModelFactory()`, `Router`'s default models).
///
/// `URLSessionTransport`: the OS's own HTTP stack on Apple platforms (no libcurl in the iOS SDK), FoundationNetworking
/// on Linux. The harness does not rely on it: the CLI, benchmarks and tests inject `CurlTransport` from HybridCurl.
public enum DefaultHTTPTransport {
    /// The process-wide default transport for this platform.
    public static var shared: any HTTPTransport { URLSessionTransport.shared }
}
