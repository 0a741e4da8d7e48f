import CCurl

/// Process-wide libcurl initialisation.
enum CurlGlobal {
    /// `curl_global_init` runs exactly once, on first use: Swift guarantees a thread-safe one-time
    /// initialisation of static stored properties, and libcurl requires the call before any other.
    static let isInitialized: Bool = curl_global_init(hy_global_all()) == CURLE_OK
}
