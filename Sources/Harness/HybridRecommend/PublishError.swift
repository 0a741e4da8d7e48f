public import HybridConfig

/// Why a config was not published or rolled back. Nothing was written when one of these is thrown, except where
/// the case says so.
public enum PublishError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The document fails validation, or the destination URL is refused.
    case config(ConfigError)
    /// The destination changed since the ETag this publish is based on (HTTP 412, or a file whose hash differs).
    case preconditionFailed(destination: String, expected: String?, found: String?)
    /// The server requires a precondition and none was known (HTTP 428).
    case preconditionRequired(destination: String)
    /// The document's version is not above the one already published there.
    case versionNotIncreasing(offered: Int, published: Int)
    /// An unsigned publish would leave a detached signature of an older payload beside the file.
    case staleSignature(path: String)
    /// The server answered with an unexpected status.
    case httpStatus(destination: String, status: Int)
    /// The transfer failed.
    case transport(destination: String, reason: String)
    /// A file could not be written.
    case fileAccess(path: String, reason: String)
    /// The config was published but its detached signature could not be uploaded; apps that verify signatures
    /// keep their current config until `URL.sig` is fixed.
    case signatureUploadFailed(destination: String, reason: String)
    /// Rollback: the snapshot history of the destination has no such version.
    case versionNotInHistory(version: Int, destination: String, available: [Int])
    /// The snapshot history could not be read.
    case store(String)
    /// The document has keys no HybridAI version knows, or conditions on labels nobody declared: each path, and
    /// `--allow-unknown-keys` (``ConfigPublisher/Options/allowUnknownKeys``) to publish it anyway.
    case unknownKeys([ConfigIssue])

    public var description: String {
        switch self {
        case .unknownKeys(let issues):
            "refused: \(issues.count) unknown key(s) or undeclared label(s), most often a misspelling that silently "
                + "drops targeting:\n" + issues.map { "  \($0.path): \($0.message)" }.joined(separator: "\n")
                + "\nfix them, declare custom labels in the document's \"labels\", or pass --allow-unknown-keys"
        case .config(let error):
            error.description
        case .preconditionFailed(let destination, let expected, let found):
            if expected == nil {
                "\(destination) already holds a config\(found.map { " (ETag \($0))" } ?? "") that this publish is not based on; fetch and review it (`hybrid config fetch \(destination)`), then publish with --if-match ETAG"
            } else {
                "\(destination) changed since ETag \(expected!) was seen\(found.map { " (now \($0))" } ?? ""); someone else published. Fetch and review it (`hybrid config fetch \(destination)`), then publish again with --if-match set to the new ETag"
            }
        case .preconditionRequired(let destination):
            "\(destination) requires If-Match and no ETag is known for it; run `hybrid config fetch \(destination)` and pass --if-match ETAG"
        case .versionNotIncreasing(let offered, let published):
            "version \(offered) is not above version \(published) already published there; apps refuse lower versions. Raise `version` to at least \(published + 1)"
        case .staleSignature(let path):
            "\(path).sig holds the signature of an older config; publish with --key to sign this one, or delete the .sig if the destination is no longer signed"
        case .httpStatus(let destination, let status):
            "\(destination) answered HTTP \(status) to the upload; expected 200, 201 or 204 (is PUT enabled there?)"
        case .transport(let destination, let reason):
            "could not upload to \(destination): \(reason)"
        case .fileAccess(let path, let reason):
            "\(path): \(reason)"
        case .signatureUploadFailed(let destination, let reason):
            "the config was published to \(destination) but its signature \(destination).sig was not: \(reason); apps that verify signatures keep their current config until it is uploaded"
        case .versionNotInHistory(let version, let destination, let available):
            available.isEmpty
                ? "no published versions of \(destination) are recorded in this database; rollback needs a version published or fetched from here"
                : "version \(version) of \(destination) is not in the snapshot history (recorded: \(available.map(String.init).joined(separator: ", ")))"
        case .store(let reason):
            "snapshot history: \(reason)"
        }
    }
}
