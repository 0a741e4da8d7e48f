import HybridCurl
import HybridLocalModel
import HybridProviders

extension ModelFactory {
    /// The harness's wiring of the app-side factory: requests over libcurl, and llama.cpp models served by a
    /// llama-server child process. Apps wire their own (the platform's default transport, no child processes).
    static func harness() -> ModelFactory {
        ModelFactory(transport: CurlTransport.shared).withLocalLlama()
    }
}
