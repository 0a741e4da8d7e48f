public import Foundation
public import HybridCore
import HybridTransport

/// Keeps the effective config: a valid remote payload, else the last-known-good copy, else the bundled defaults.
///
/// Nothing here throws at the app. Every call returns a `ConfigResolution` whose `config` is usable; a refused
/// payload (bad JSON, failed validation, bad signature, lower version, failed transfer) leaves the config in force
/// unchanged and is reported in `reasonNewOneRejected`.
///
/// A last-known-good copy older than the bundled defaults (lower `version`, e.g. after an app update) is not used.
public actor ConfigLoader {
    /// Behaviour switches.
    public struct Options: Sendable {
        /// Accept a payload whose `version` is lower than the one in use (a deliberate rollback).
        var allowVersionRollback: Bool
        /// Refuse fetched payloads with unknown keys, unless they declare a newer `schemaVersion` (then the keys are
        /// warnings).
        var checkUnknownKeys: Bool
        /// How long a fetch stays fresh (like Firebase Remote Config's `minimumFetchInterval`): from `start()` on, a
        /// conditional fetch begins in the background whenever this long has passed since the last one began. nil:
        /// only `refresh()` fetches.
        var refreshInterval: Duration?
        /// How long `start()` (which a router awaits before every request) waits for the first fetch, beginning it
        /// when none has: a fetch that ends in time serves the first request; a slower one keeps going. nil: never.
        var firstFetchWait: Duration?

        /// Creates options; by default lower versions are refused, and so are unknown keys in a document that does
        /// not declare a newer `schemaVersion`, and the loader fetches only when `refresh()` is called.
        ///
        /// - Parameters:
        ///   - refreshInterval: with it, `start()` schedules a conditional fetch (ETag) in the background whenever this
        ///     long has passed since the last fetch began (at once when none has), so a long-running process follows
        ///     the remote config; a 304 or a refused payload keeps the config in force. A router reads the config at
        ///     the start of every request, so the first request that starts after a fetch ended is served what it
        ///     brought; requests meanwhile keep the config in force.
        ///   - firstFetchWait: with it, `start()` waits up to this long for the first fetch, so on a quick network the
        ///     first requests are served the fetched config rather than the last-known-good copy or the bundled
        ///     defaults; a slower fetch keeps going and serves the first request after it ends.
        public init(
            allowVersionRollback: Bool = false, checkUnknownKeys: Bool = true, refreshInterval: Duration? = nil,
            firstFetchWait: Duration? = nil
        ) {
            self.allowVersionRollback = allowVersionRollback
            self.checkUnknownKeys = checkUnknownKeys
            self.refreshInterval = refreshInterval
            self.firstFetchWait = firstFetchWait
        }
    }

    private let bundled: ValidatedConfig
    let sourceURL: String?
    let fetcher: ConfigFetcher?
    private let cache: any ConfigSnapshotCache
    private let verifier: ConfigSignatureVerifier?
    private let promptFiles: PromptFileResolver
    let options: Options
    private let now: @Sendable () -> Date
    /// Elapsed time for `refreshInterval` and `firstFetchWait` (virtual in tests); `sleep` returns at an instant of
    /// `monotonicNow`'s time base, or throws when cancelled.
    let monotonicNow: @Sendable () -> ContinuousClock.Instant
    let sleep: @Sendable (ContinuousClock.Instant) async throws -> Void

    /// The resolution in force.
    public private(set) var current: ConfigResolution
    /// Reading the last-known-good copy, once: every reader of the config waits for it, so a request made at launch,
    /// offline, is served by the last good config rather than the bundled one.
    private var starting: Task<Void, Never>?
    /// Feature → (the app's type name, its schema): output types a fetched config must stay compatible with.
    private var outputTypes: [String: (name: String, schema: JSONValue)] = [:]
    /// The fetch in flight; every `refresh()` meanwhile joins it.
    var fetching: Task<ConfigResolution, Never>?
    /// When the last fetch began; nil before the first.
    var lastFetchBegan: ContinuousClock.Instant?
    /// Fetches that have ended (applied, not modified, refused or failed).
    var fetchesEnded = 0
    /// Where the first callers of `start()` stand in their wait for the first fetch (`Options.firstFetchWait`).
    var firstFetchWaiting = FirstFetchWait.notBegun
    /// The background task that fetches every `refreshInterval`; it holds the loader weakly.
    var refreshSchedule: Task<Void, Never>?

    /// A loader over validated bundled defaults.
    ///
    /// - Parameters:
    ///   - sourceURL: the remote config (`https://…`, `http://127.0.0.1…`, `file://…`); nil for defaults only.
    ///   - cacheFile: where the last-known-good copies are kept across launches (a JSON file, written atomically;
    ///     the ten newest per source); nil keeps them in memory only.
    ///   - verifier: when set, every payload (fetched or cached) must carry a valid signature.
    public init(
        bundled: ValidatedConfig,
        sourceURL: String?,
        fetcher: ConfigFetcher?,
        cacheFile: URL? = nil,
        verifier: ConfigSignatureVerifier? = nil,
        promptFiles: PromptFileResolver = PromptFileResolver(),
        options: Options = Options()
    ) {
        self.init(
            bundled: bundled, sourceURL: sourceURL, fetcher: fetcher, cache: Self.cache(at: cacheFile),
            verifier: verifier, promptFiles: promptFiles, options: options)
    }

    /// A loader over any snapshot cache (the harness keeps them in SQLite or PostgreSQL) and clocks: `now` dates
    /// snapshots; `monotonicNow` and `sleep` (`ContinuousClock`, which counts while the device sleeps, so a config
    /// fetched before a night in a drawer is stale in the morning) time `refreshInterval` and `firstFetchWait`.
    package init(
        bundled: ValidatedConfig,
        sourceURL: String?,
        fetcher: ConfigFetcher?,
        cache: any ConfigSnapshotCache,
        verifier: ConfigSignatureVerifier? = nil,
        promptFiles: PromptFileResolver = PromptFileResolver(),
        options: Options = Options(),
        now: @escaping @Sendable () -> Date = { Date() },
        monotonicNow: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        sleep: @escaping @Sendable (ContinuousClock.Instant) async throws -> Void = { try await Task.sleep(until: $0, clock: .continuous) }
    ) {
        self.bundled = bundled
        self.sourceURL = sourceURL
        self.fetcher = fetcher
        self.cache = cache
        self.verifier = verifier
        self.promptFiles = promptFiles
        self.options = options
        self.now = now
        self.monotonicNow = monotonicNow
        self.sleep = sleep
        self.current = ConfigResolution(
            config: bundled.document, source: .bundled, warnings: bundled.warnings, templateFiles: bundled.templateFiles
        )
    }

    /// Loads the last-known-good copy for the source, if there is a usable one, and returns the resolution in force.
    ///
    /// The copy is read once (later calls return what is in force): at start-up, or by itself before the first
    /// `refresh()` or the first request a router reads the config for (a router awaits `start()` before every
    /// request). Without `Options.refreshInterval` and `Options.firstFetchWait` it never touches the network. With
    /// `refreshInterval`, the first call schedules the background fetches; with `firstFetchWait`, the first calls
    /// wait up to that long for the first fetch (beginning it when none has).
    @discardableResult
    public func start() async -> ConfigResolution {
        await loadLastKnownGoodOnce()
        beginFirstFetchWaitIfAsked()
        scheduleRefreshesIfAsked()
        await waitForFirstFetch()
        return current
    }

    /// Reads the last-known-good copy the first time; every caller waits for that one read.
    private func loadLastKnownGoodOnce() async {
        if starting == nil { starting = Task { await self.loadLastKnownGood() } }
        await starting?.value
    }

    deinit {
        refreshSchedule?.cancel()
    }

    private func loadLastKnownGood() async {
        guard let sourceURL else { return }
        let snapshot: ConfigSnapshot?
        do {
            snapshot = try await cache.lastKnownGood(source: sourceURL)
        } catch {
            current.cacheError = error
            return
        }
        guard let snapshot, current.source == .bundled else { return }
        do {
            if let verifier { try verifier.verify(snapshot.body, signature: snapshot.signature, source: "cached \(URLRedaction.redact(sourceURL))") }
            let validated = try ConfigValidator.load(snapshot.body, promptFiles: promptFiles, checkUnknownKeys: false)
            guard validated.document.version >= bundled.document.version else { return }
            current = ConfigResolution(
                config: validated.document, source: .lastKnownGood(url: sourceURL), etag: snapshot.etag,
                fetchedAt: snapshot.fetchedAt, outcome: .initial, warnings: validated.warnings,
                templateFiles: validated.templateFiles
            )
        } catch {
            current.outcome = .rejected
            current.reasonNewOneRejected = error
        }
    }

    /// Fetches the source (conditionally, with the ETag in force) and applies the result; joins the fetch in flight
    /// when there is one (begun by another `refresh()` or by a request finding the config stale).
    @discardableResult
    public func refresh() async -> ConfigResolution {
        await loadLastKnownGoodOnce()  // the last good copy first: a refresh that fails offline then keeps it in force
        guard sourceURL != nil, fetcher != nil else { return current }
        return await beginFetch().value
    }

    /// One conditional fetch of the source, applied; run only by `beginFetch()`.
    func fetchAndApply() async -> ConfigResolution {
        guard let sourceURL, let fetcher else { return current }
        let etag: String? =
            switch current.source {
            case .remote(let url), .lastKnownGood(let url): url == sourceURL ? current.etag : nil
            case .bundled: nil
            }
        do {
            switch try await fetcher.fetch(sourceURL, etag: etag, wantSignature: verifier != nil) {
            case .notModified:
                current.outcome = .notModified
                current.reasonNewOneRejected = nil
                return current
            case .fetched(let payload):
                return await offer(payload)
            }
        } catch {
            return reject(error)
        }
    }

    /// Validates and applies a config obtained elsewhere (a push notification, a file the app downloaded): the same
    /// checks as `refresh()` (signature when a verifier is set, validation, version). `source` names it in errors and
    /// keys its last-known-good snapshot.
    @discardableResult
    public func offer(_ body: Data, signature: String? = nil, source: String) async -> ConfigResolution {
        await offer(ConfigFetcher.FetchedPayload(url: source, status: 200, body: body, etag: nil, signature: signature))
    }

    /// Validates and applies a fetched payload.
    @discardableResult
    func offer(_ payload: ConfigFetcher.FetchedPayload) async -> ConfigResolution {
        let validated: ValidatedConfig
        do {
            if let verifier { try verifier.verify(payload.body, signature: payload.signature, source: URLRedaction.redact(payload.url)) }
            validated = try ConfigValidator.load(payload.body, promptFiles: promptFiles, checkUnknownKeys: options.checkUnknownKeys)
        } catch {
            return reject(error)
        }
        let broken = typeProblems(validated.document)
        if !broken.isEmpty { return reject(.invalid(broken)) }
        let unknown = validated.warnings.filter(\.isUnknownKey)
        if options.checkUnknownKeys, !unknown.isEmpty, (validated.document.schemaVersion ?? 1) <= ConfigValidator.schemaVersion {
            // Forward compatibility is declared, not assumed: a misspelt `overides` must not replace a config whose
            // targeting works.
            return reject(.invalid(unknown.map {
                ConfigIssue(path: $0.path, message: "unknown key; the document does not declare a schemaVersion above \(ConfigValidator.schemaVersion), so it is refused (a misspelling would drop what it meant)")
            }))
        }
        let inUse = current.config.version
        if validated.document.version < inUse && !options.allowVersionRollback {
            return reject(.versionRollback(offered: validated.document.version, inUse: inUse))
        }
        let fetchedAt = now()
        var cacheError: ConfigError?
        do {
            try await cache.save(
                ConfigSnapshot(
                    source: payload.url, body: payload.body, etag: payload.etag, version: validated.document.version,
                    fetchedAt: fetchedAt, signature: payload.signature
                )
            )
        } catch {
            cacheError = error
        }
        current = ConfigResolution(
            config: validated.document, source: .remote(url: payload.url), etag: payload.etag, fetchedAt: fetchedAt,
            outcome: .updated, warnings: validated.warnings, templateFiles: validated.templateFiles, cacheError: cacheError
        )
        return current
    }

    /// Refuses, from now on, any fetched config whose `outputSchema` for `feature` admits answers that would not
    /// decode into the app's type (`typeName`, its schema `schema`): such a config keeps the one in force (the last
    /// known good), and `reasonNewOneRejected` names each JSON path. A config without an `outputSchema` for the
    /// feature is fine: typed calls send the type's own schema.
    func requireOutput(_ schema: JSONValue, named typeName: String, forFeature feature: String) {
        outputTypes[feature] = (typeName, schema)
    }

    private func typeProblems(_ document: HybridConfigDocument) -> [ConfigIssue] {
        outputTypes.sorted { $0.key < $1.key }.flatMap { feature, type -> [ConfigIssue] in
            guard let schema = document.features[feature]?.outputSchema?.source else { return [] }
            return SchemaCompatibility.problems(config: schema, type: type.schema).map { problem in
                ConfigIssue(
                    path: "features.\(feature).outputSchema", message: "breaks the app's \(type.name): \(problem)")
            }
        }
    }

    private func reject(_ error: ConfigError) -> ConfigResolution {
        current.outcome = .rejected
        current.reasonNewOneRejected = error
        return current
    }
}

extension ConfigLoader {
    /// A file cache at `url`, or one in memory.
    private static func cache(at url: URL?) -> any ConfigSnapshotCache {
        url.map { FileConfigSnapshotCache(url: $0) } ?? InMemoryConfigSnapshotCache()
    }
}

extension ConfigLoader {
    /// Refuses fetched configs whose `outputSchema` for `feature` would break decoding into `type` (see
    /// ``requireOutput(_:named:forFeature:)``). A type without a schema is not registered: its typed requests fail
    /// with the schema's error before any config matters (``StructuredOutput/validateSchema()`` finds it in a test).
    public func requireOutput<T: StructuredOutput>(_ type: T.Type, forFeature feature: String) {
        guard let schema = try? T.schema else { return }
        requireOutput(schema, named: String(describing: T.self), forFeature: feature)
    }
}
