import HybridCrypto
import Foundation
import HybridCore

/// A response cache key: SHA-256 over the feature, variant, model id and everything sent to the model.
///
/// The request part is `GenerationRequest.cacheIdentity` (everything but the deadline), so the router and the eval
/// response cache name requests the same way.
public struct RouterCacheKey: Sendable, Hashable {
    /// The digest as lowercase hex (64 characters).
    let hex: String

    /// The key for serving `request` of `feature`/`variant` with model `modelID`.
    init(feature: String, variant: String, modelID: String, request: GenerationRequest) {
        var text = ""
        for value in [feature, variant, modelID] {
            text += String(value.utf8.count) + ":" + value
        }
        text += request.cacheIdentity
        let digest = SHA256.hash(data: Data(text.utf8))
        hex = digest.map { byte in
            let h = String(byte, radix: 16)
            return byte < 16 ? "0" + h : h
        }.joined()
    }

    package var description: String { hex }
}
