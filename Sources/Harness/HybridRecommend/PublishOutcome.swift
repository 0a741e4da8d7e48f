/// What a publish (or rollback) did.
public struct PublishOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The destination as given (`https://…`, `http://127.0.0.1…` or `file:///…`).
    public var destination: String
    /// The published document's version.
    public var version: Int
    /// The ETag the publish was conditional on (nil: only if nothing was there yet).
    public var expectedETag: String?
    /// The destination's ETag after the publish; nil for dry runs or servers that do not say.
    public var etag: String?
    /// The base64 signature sent with the payload, when signed.
    public var signature: String?
    /// True when only validated: nothing was written.
    public var dryRun: Bool
    /// Size of the published payload, in bytes.
    public var bytes: Int
    /// Non-fatal problems (the read-back differed, the snapshot was not recorded).
    public var warnings: [String]

    /// Creates an outcome; `ConfigPublisher` builds these.
    public init(
        destination: String, version: Int, expectedETag: String?, etag: String?, signature: String?, dryRun: Bool,
        bytes: Int, warnings: [String] = []
    ) {
        self.destination = destination
        self.version = version
        self.expectedETag = expectedETag
        self.etag = etag
        self.signature = signature
        self.dryRun = dryRun
        self.bytes = bytes
        self.warnings = warnings
    }

    public var description: String {
        let condition = expectedETag.map { "If-Match \($0)" } ?? "only if nothing is there yet"
        let signed = signature == nil ? "unsigned" : "signed"
        if dryRun {
            return "dry run: version \(version) is valid; would publish \(bytes) bytes to \(destination) (\(condition), \(signed))"
        }
        return "published version \(version) to \(destination) (\(bytes) bytes, \(signed), \(condition)); ETag now \(etag ?? "unknown")"
    }
}
