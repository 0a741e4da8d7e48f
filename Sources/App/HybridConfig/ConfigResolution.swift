public import Foundation
import HybridTransport

/// The config in force and why: the OpenFeature "value + reason" contract.
///
/// `config` is always usable. When a new payload was offered and refused, `reasonNewOneRejected` says why and
/// `config` is the one that stayed.
public struct ConfigResolution: Sendable {
    /// Where the config in force came from.
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        /// Compiled into the library.
        case bundled
        /// A payload accepted on an earlier run, reloaded from the cache.
        case lastKnownGood(url: String)
        /// Fetched and accepted during this run.
        case remote(url: String)

        public var description: String {
            switch self {
            case .bundled: "bundled defaults"
            case .lastKnownGood(let url): "last-known-good copy of \(URLRedaction.redact(url))"
            case .remote(let url): "remote \(URLRedaction.redact(url))"
            }
        }
    }

    /// What the latest attempt to change the config did.
    public enum Outcome: Sendable, Hashable {
        /// Nothing was offered yet (start-up).
        case initial
        /// A new payload was accepted.
        case updated
        /// The server said 304; the config in force is current.
        case notModified
        /// A payload (or a fetch) failed; see `reasonNewOneRejected`.
        case rejected
    }

    /// The effective document, template files inlined.
    public var config: HybridConfigDocument
    /// Where `config` came from.
    public var source: Source
    /// ETag of the payload in force, when it came from HTTP or a file.
    package var etag: String?
    /// When the payload in force was fetched; nil for bundled defaults.
    public var fetchedAt: Date?
    /// What the latest start, refresh or offer did.
    public var outcome: Outcome
    /// Why the latest offered config was not taken; nil when it was, or when nothing was offered.
    public var reasonNewOneRejected: ConfigError?
    /// Non-blocking problems of the config in force.
    public var warnings: [ConfigIssue]
    /// Variant path → template file it came from (for `hybrid config show`).
    package var templateFiles: [String: String]
    /// The cache could not be read or written; the config is still valid, it just will not survive a restart.
    public var cacheError: ConfigError?

    /// Creates a resolution; `ConfigLoader` builds these, tests build them directly.
    init(
        config: HybridConfigDocument,
        source: Source,
        etag: String? = nil,
        fetchedAt: Date? = nil,
        outcome: Outcome = .initial,
        reasonNewOneRejected: ConfigError? = nil,
        warnings: [ConfigIssue] = [],
        templateFiles: [String: String] = [:],
        cacheError: ConfigError? = nil
    ) {
        self.config = config
        self.source = source
        self.etag = etag
        self.fetchedAt = fetchedAt
        self.outcome = outcome
        self.reasonNewOneRejected = reasonNewOneRejected
        self.warnings = warnings
        self.templateFiles = templateFiles
        self.cacheError = cacheError
    }
}
