import HybridCore

/// The response-cache key: a SHA-256 over the model id and everything in the request that can change the output
/// (`GenerationRequest.cacheIdentity`, which leaves the deadline out).
enum RequestFingerprint {
    static func hash(modelID: String, request: GenerationRequest) -> String {
        ContentHash.hex(of: String(modelID.utf8.count) + ":" + modelID + request.cacheIdentity)
    }
}
