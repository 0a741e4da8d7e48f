import Foundation

/// Why a config could not be loaded, fetched, verified or converted.
///
/// The loader never throws these at the app: it keeps the config in force and reports the error as the reason the
/// new one was not taken.
///
/// A struct with a kind rather than a public enum, so that a new way for a config to be refused does not break
/// callers' exhaustive switches (the shape of async-http-client's `HTTPClientError`). Build one with the static
/// functions (`throw .fetchFailed(url: url, reason: "timed out")`); to handle one, test ``kind`` and read the
/// properties of that kind, which are nil (or empty) for the others:
///
/// ```swift
/// if error.kind == .httpStatus, let status = error.status { … }
/// ```
///
/// Two errors are equal when they have the same kind and the same values.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure. New kinds may be added; compare with `==` and keep a `default` in a `switch`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// Internal so this module's switches stay exhaustive while callers cannot depend on the list.
        enum Name: String, Sendable {
            case notJSON, invalid, insecureSource, fetchFailed, httpStatus, bodyTooLarge, versionRollback
            case signatureMissing, signatureInvalid, invalidKey, fileAccess, cache, firebase
        }

        let name: Name

        /// The payload is not JSON at all (``ConfigError/detail`` says where parsing stopped).
        public static let notJSON = Kind(name: .notJSON)
        /// The payload is JSON but breaks the config's rules (``ConfigError/issues``).
        public static let invalid = Kind(name: .invalid)
        /// The source URL is not acceptable (``ConfigError/url``, ``ConfigError/reason``).
        public static let insecureSource = Kind(name: .insecureSource)
        /// The transfer failed (``ConfigError/url``, ``ConfigError/reason``).
        public static let fetchFailed = Kind(name: .fetchFailed)
        /// The server answered with a status other than 200 or 304 (``ConfigError/url``, ``ConfigError/status``).
        public static let httpStatus = Kind(name: .httpStatus)
        /// The body was larger than the limit (``ConfigError/url``, ``ConfigError/limit``).
        public static let bodyTooLarge = Kind(name: .bodyTooLarge)
        /// The offered config is older than the one in use (``ConfigError/offered``, ``ConfigError/inUse``).
        public static let versionRollback = Kind(name: .versionRollback)
        /// A public key is configured but the payload came unsigned (``ConfigError/source``).
        public static let signatureMissing = Kind(name: .signatureMissing)
        /// The signature does not match the payload (``ConfigError/source``, ``ConfigError/reason``).
        public static let signatureInvalid = Kind(name: .signatureInvalid)
        /// A key file or key string could not be used (``ConfigError/reason``).
        public static let invalidKey = Kind(name: .invalidKey)
        /// A local file could not be read or written (``ConfigError/path``, ``ConfigError/reason``).
        public static let fileAccess = Kind(name: .fileAccess)
        /// The last-known-good cache failed (``ConfigError/reason``).
        public static let cache = Kind(name: .cache)
        /// A Firebase Remote Config template could not be imported or exported (``ConfigError/path``,
        /// ``ConfigError/reason``).
        static let firebase = Kind(name: .firebase)

        /// The kind's name as written in Swift (`versionRollback`), for logs and test names.
        public var description: String { name.rawValue }
    }

    /// The kind of failure; the way to tell errors apart (`error.kind == .fetchFailed`).
    public let kind: Kind
    /// For ``Kind/notJSON``: where and why JSON parsing stopped.
    let detail: String?
    /// For ``Kind/invalid``: every error-severity issue, each with its path; empty for the other kinds.
    public let issues: [ConfigIssue]
    /// The config source URL, for ``Kind/insecureSource``, ``Kind/fetchFailed``, ``Kind/httpStatus`` and
    /// ``Kind/bodyTooLarge``, so the message names the source the operator has to fix.
    public let url: String?
    /// Why, in words, for ``Kind/insecureSource``, ``Kind/fetchFailed``, ``Kind/signatureInvalid``,
    /// ``Kind/invalidKey``, ``Kind/fileAccess``, ``Kind/cache`` and ``Kind/firebase``.
    let reason: String?
    /// For ``Kind/httpStatus``: the status the server answered with.
    public let status: Int?
    /// For ``Kind/bodyTooLarge``: the limit in bytes that the body exceeded (`maxBodyBytes`).
    let limit: Int?
    /// For ``Kind/versionRollback``: the `version` of the config that was offered and refused.
    let offered: Int?
    /// For ``Kind/versionRollback``: the `version` of the config in use, which the offered one is older than.
    let inUse: Int?
    /// For ``Kind/signatureMissing`` and ``Kind/signatureInvalid``: where the payload came from (URL or file).
    public let source: String?
    /// For ``Kind/fileAccess`` and ``Kind/firebase``: the local file concerned.
    public let path: String?

    private init(
        _ kind: Kind, detail: String? = nil, issues: [ConfigIssue] = [], url: String? = nil, reason: String? = nil,
        status: Int? = nil, limit: Int? = nil, offered: Int? = nil, inUse: Int? = nil, source: String? = nil,
        path: String? = nil
    ) {
        self.kind = kind
        self.detail = detail
        self.issues = issues
        self.url = url
        self.reason = reason
        self.status = status
        self.limit = limit
        self.offered = offered
        self.inUse = inUse
        self.source = source
        self.path = path
    }

    /// The payload is not JSON at all.
    package static func notJSON(detail: String) -> ConfigError { ConfigError(.notJSON, detail: detail) }

    /// The payload is JSON but breaks the config's rules; every issue has a path. Only errors are listed here.
    static func invalid(_ issues: [ConfigIssue]) -> ConfigError { ConfigError(.invalid, issues: issues) }

    /// The source URL is not acceptable (plain HTTP to a non-loopback host, unknown scheme, unparsable).
    static func insecureSource(url: String, reason: String) -> ConfigError {
        ConfigError(.insecureSource, url: url, reason: reason)
    }

    /// The transfer failed (connection refused, timeout, truncated body).
    static func fetchFailed(url: String, reason: String) -> ConfigError {
        ConfigError(.fetchFailed, url: url, reason: reason)
    }

    /// The server answered with a status other than 200 or 304.
    static func httpStatus(url: String, status: Int) -> ConfigError { ConfigError(.httpStatus, url: url, status: status) }

    /// The body was larger than the limit.
    static func bodyTooLarge(url: String, limit: Int) -> ConfigError { ConfigError(.bodyTooLarge, url: url, limit: limit) }

    /// The offered config has a lower `version` than the one in use (a possible rollback attack).
    static func versionRollback(offered: Int, inUse: Int) -> ConfigError {
        ConfigError(.versionRollback, offered: offered, inUse: inUse)
    }

    /// A public key is configured but the payload came without a signature.
    static func signatureMissing(source: String) -> ConfigError { ConfigError(.signatureMissing, source: source) }

    /// The signature does not match the payload bytes (tampered payload, wrong key, or a corrupt signature).
    static func signatureInvalid(source: String, reason: String) -> ConfigError {
        ConfigError(.signatureInvalid, reason: reason, source: source)
    }

    /// A key file or key string could not be used.
    package static func invalidKey(reason: String) -> ConfigError { ConfigError(.invalidKey, reason: reason) }

    /// A local file could not be read or written.
    package static func fileAccess(path: String, reason: String) -> ConfigError {
        ConfigError(.fileAccess, reason: reason, path: path)
    }

    /// The last-known-good cache failed; the loader carries on without it.
    public static func cache(reason: String) -> ConfigError { ConfigError(.cache, reason: reason) }

    /// A Firebase Remote Config template could not be imported or exported.
    package static func firebase(path: String, reason: String) -> ConfigError {
        ConfigError(.firebase, reason: reason, path: path)
    }

    /// What was refused and, where there is one, the fix; shown as the reason a new config was not taken.
    public var description: String {
        let url = url ?? "", reason = reason ?? "", source = source ?? "", path = path ?? ""
        switch kind.name {
        case .notJSON:
            return "the payload is not valid JSON (\(detail ?? ""))"
        case .invalid:
            if issues.count == 1 {
                return "invalid config: \(issues[0])"
            } else {
                return "invalid config (\(issues.count) problems):\n" + issues.map { "  \($0)" }.joined(separator: "\n")
            }
        case .insecureSource:
            return "refusing config source \(url): \(reason)"
        case .fetchFailed:
            return "could not fetch \(url): \(reason)"
        case .httpStatus:
            return "\(url) answered HTTP \(status ?? 0); expected 200 or 304"
        case .bodyTooLarge:
            return "\(url): config body larger than the limit of \(limit ?? 0) bytes; raise maxBodyBytes or shrink the config"
        case .versionRollback:
            return "offered config version \(offered ?? 0) is lower than version \(inUse ?? 0) in use; refused as a possible rollback (allow rollbacks explicitly to accept it)"
        case .signatureMissing:
            return "\(source): a signing key is configured but the payload has no signature (X-Hybrid-Signature header or detached .sig)"
        case .signatureInvalid:
            return "\(source): signature check failed: \(reason)"
        case .invalidKey:
            return "unusable key: \(reason)"
        case .fileAccess:
            return "\(path): \(reason)"
        case .cache:
            return "last-known-good cache: \(reason)"
        case .firebase:
            return "Firebase template \(path): \(reason)"
        }
    }
}
