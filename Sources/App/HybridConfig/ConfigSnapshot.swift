package import Foundation

/// One accepted config payload, exactly as received, with what is needed to reuse it offline.
package struct ConfigSnapshot: Sendable, Hashable {
    /// The source URL it was fetched from.
    package var source: String
    /// The payload bytes exactly as received (signatures cover these bytes).
    package var body: Data
    /// The ETag the server sent with it.
    package var etag: String?
    /// The document's `version`, for rollback checks without decoding.
    package var version: Int
    /// When it was fetched and accepted.
    package var fetchedAt: Date
    /// Base64 Ed25519 signature, when the payload was signed.
    package var signature: String?

    /// Creates a snapshot; `body` must be the exact received bytes or a stored signature will not verify.
    package init(source: String, body: Data, etag: String?, version: Int, fetchedAt: Date, signature: String?) {
        self.source = source
        self.body = body
        self.etag = etag
        self.version = version
        self.fetchedAt = fetchedAt
        self.signature = signature
    }
}
