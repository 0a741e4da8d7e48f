public import Foundation
public import HybridConfig
public import HybridConfigTools
public import HybridStore
public import HybridTransport

/// Publishes config documents where apps fetch them, refusing to overwrite changes it has not seen; rolls back by
/// republishing an earlier version from the snapshot history.
///
/// HTTP(S): `PUT` with `If-Match: <ETag>` (the ETag last seen for that URL: `--if-match`, else the latest snapshot
/// this database recorded for it); with no known ETag it sends `If-None-Match: *`, so it only creates. 412 is
/// refused with a message saying to fetch and review. When signed, the signature goes in `X-Hybrid-Signature` and
/// to `URL.sig` (for servers such as nginx's WebDAV module that keep bodies, not headers). `file://`: the same
/// rule with the file's content hash (the ETag `ConfigFetcher` reports for files) in place of the server's ETag;
/// the file (and its detached `.sig`) are replaced atomically by rename. After a publish the destination is read
/// back and recorded in the snapshot history, which is what `rollback` draws on.
public struct ConfigPublisher: Sendable {
    /// Per-publish settings.
    public struct Options: Sendable {
        /// The ETag the publish is based on; overrides the snapshot history. `*` accepts whatever is there.
        public var ifMatch: String?
        /// Validate and report only; write nothing.
        public var dryRun: Bool
        /// Signs the exact bytes published.
        public var signer: ConfigSigner?
        /// Where `templateFile` references resolve during validation.
        public var promptFiles: PromptFileResolver
        /// Limits of each HTTP request.
        public var timeouts: HTTPTimeouts
        /// Publish a document with unknown keys or conditions on undeclared labels (refused by default).
        public var allowUnknownKeys = false

        /// Creates options; by default the publish is real, unsigned, conditional on the snapshot history, template files resolved by `promptFiles` (none by default: the CLI passes the file's folder, then the harness's `prompts/` copies) and sent inline, with 5 s / 15 s / 30 s connect, first-byte and total limits.
        public init(
            ifMatch: String? = nil, dryRun: Bool = false, signer: ConfigSigner? = nil, promptFiles: PromptFileResolver = PromptFileResolver(),
            timeouts: HTTPTimeouts = HTTPTimeouts(connect: .seconds(5), firstByte: .seconds(15), total: .seconds(30))
        ) {
            self.ifMatch = ifMatch
            self.dryRun = dryRun
            self.signer = signer
            self.promptFiles = promptFiles
            self.timeouts = timeouts
        }
    }

    /// The HTTP client that reads and writes the destination.
    public let transport: any HTTPTransport
    /// Where ETags and published versions are remembered; nil publishes without history (no rollback).
    public let snapshots: (any ConfigSnapshotStore)?

    /// Creates a publisher; pass nil `snapshots` only when rollback is not needed.
    public init(transport: any HTTPTransport, snapshots: (any ConfigSnapshotStore)?) {
        self.transport = transport
        self.snapshots = snapshots
    }

    /// Validates `body` and publishes it to `destination` (`https://…`, `http://127.0.0.1…`, `file:///…`).
    public func publish(_ body: Data, to destination: String, options: Options = Options()) async throws(PublishError) -> PublishOutcome {
        let validated: ValidatedConfig
        let kind: ConfigFetcher.SourceKind
        do {
            validated = try ConfigValidator.load(body, promptFiles: options.promptFiles)
            kind = try ConfigFetcher.checkSource(destination)
        } catch {
            throw .config(error)
        }
        let document = validated.document
        // Apps resolve no template files (they have no prompts/ folder), so what goes out carries the text inline.
        let body = validated.templateFiles.isEmpty ? body : inlined(body, options.promptFiles)
        let unknown = validated.warnings.filter(\.blocksPublishing)
        if !unknown.isEmpty && !options.allowUnknownKeys { throw .unknownKeys(unknown) }
        let latest = try await latestSnapshot(destination)
        if let latest, document.version <= latest.version {
            throw .versionNotIncreasing(offered: document.version, published: latest.version)
        }
        let expected = options.ifMatch ?? latest?.etag
        let signature: String?
        do {
            signature = try options.signer?.sign(body)
        } catch {
            throw .config(error)
        }
        var outcome = PublishOutcome(
            destination: destination, version: document.version, expectedETag: expected, etag: nil, signature: signature,
            dryRun: options.dryRun, bytes: body.count)
        switch kind {
        case .file(let path):
            try await checkFile(path: path, destination: destination, expected: expected, version: document.version, signed: signature != nil)
            guard !options.dryRun else { return outcome }
            try writeFile(path: path, body: body, signature: signature)
        case .http:
            guard !options.dryRun else { return outcome }
            outcome.etag = try await put(body, to: destination, expected: expected, signature: signature, timeouts: options.timeouts)
        }
        await readBackAndRecord(&outcome, body: body)
        return outcome
    }

    /// Republishes version `version` of `destination` from the snapshot history as version (highest recorded + 1),
    /// so apps that refuse lower versions take it, conditional on the latest recorded ETag.
    public func rollback(
        to version: Int, destination: String, options: Options = Options(), now: Date = Date()
    ) async throws(PublishError) -> PublishOutcome {
        guard let snapshots else { throw .versionNotInHistory(version: version, destination: destination, available: []) }
        let history: [ConfigSnapshotRecord]
        do {
            history = try await snapshots.snapshots(source: destination)
        } catch {
            throw .store(error.description)
        }
        guard let target = history.first(where: { $0.version == version }) else {
            throw .versionNotInHistory(version: version, destination: destination, available: history.map(\.version))
        }
        var document: HybridConfigDocument
        do {
            document = try ConfigValidator.decode(target.rawBytes)
        } catch {
            throw .config(error)
        }
        let highest = history.map(\.version).max() ?? version
        document.version = highest + 1
        let was = document.description.map { " Content as published then: \($0)" } ?? ""
        document.description = "Rollback: the content of version \(version), republished as version \(highest + 1) so apps that refuse lower versions accept it.\(was)"
        document.provenance = Provenance(
            producedBy: "hybrid config rollback", evalRun: document.provenance?.evalRun,
            createdAt: ISO8601DateFormatter().string(from: now))
        return try await publish(document.encodedJSON(), to: destination, options: options)
    }

    // MARK: - Files

    private func checkFile(path: String, destination: String, expected: String?, version: Int, signed: Bool) async throws(PublishError) {
        if FileManager.default.fileExists(atPath: path) {
            // The fetcher's own content-hash ETag, so `hybrid config fetch file://…` prints what --if-match expects.
            let current: ConfigFetcher.FetchedPayload
            do {
                guard case .fetched(let payload) = try await ConfigFetcher(transport: transport).fetch(destination) else {
                    throw PublishError.fileAccess(path: path, reason: "cannot read the current file")
                }
                current = payload
            } catch let error as PublishError {
                throw error
            } catch let error as ConfigError {
                throw .config(error)
            } catch {
                throw .fileAccess(path: path, reason: "cannot read the current file: \(error)")
            }
            let found = current.etag
            let body = current.body
            if let expected, expected == "*" || expected == found {
                // The precondition holds; the version must still go up for apps to take it.
                if let published = try? ConfigValidator.decode(body), version <= published.version {
                    throw .versionNotIncreasing(offered: version, published: published.version)
                }
            } else {
                throw .preconditionFailed(destination: destination, expected: expected, found: found)
            }
        } else if let expected {
            throw .preconditionFailed(destination: destination, expected: expected, found: nil)
        }
        if !signed && FileManager.default.fileExists(atPath: path + ".sig") {
            throw .staleSignature(path: path)
        }
    }

    private func writeFile(path: String, body: Data, signature: String?) throws(PublishError) {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            // The signature first: a reader between the two renames sees the old config with the new signature and
            // rejects it, keeping the config it has; it never takes an unverified payload.
            if let signature { try Data((signature + "\n").utf8).write(to: URL(fileURLWithPath: path + ".sig"), options: .atomic) }
            try body.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .fileAccess(path: path, reason: "cannot write: \(error.localizedDescription)")
        }
    }

    // MARK: - HTTP

    private func put(_ body: Data, to destination: String, expected: String?, signature: String?, timeouts: HTTPTimeouts) async throws(PublishError) -> String? {
        var headers = HTTPHeaders([("Content-Type", "application/json")])
        if let expected {
            headers.add(name: "If-Match", value: expected)
        } else {
            headers.add(name: "If-None-Match", value: "*")
        }
        if let signature { headers.add(name: ConfigFetcher.signatureHeader, value: signature) }
        let shown = URLRedaction.redact(destination)
        let response = try await send(HTTPRequest(method: "PUT", url: destination, headers: headers, body: body, timeouts: timeouts), shown: shown)
        switch response.status {
        case 200, 201, 204:
            break
        case 412:
            throw .preconditionFailed(destination: shown, expected: expected, found: response.headers["ETag"])
        case 428:
            throw .preconditionRequired(destination: shown)
        default:
            throw .httpStatus(destination: shown, status: response.status)
        }
        let etag = response.headers["ETag"]
        if let signature, var components = URLComponents(string: destination) {
            components.path += ".sig"
            if let sigURL = components.string {
                let request = HTTPRequest(
                    method: "PUT", url: sigURL, headers: HTTPHeaders([("Content-Type", "text/plain")]),
                    body: Data((signature + "\n").utf8), timeouts: timeouts)
                let sigResponse: HTTPResponse
                do {
                    sigResponse = try await send(request, shown: shown + ".sig")
                } catch {
                    throw .signatureUploadFailed(destination: shown, reason: error.description)
                }
                guard (200...204).contains(sigResponse.status) else {
                    throw .signatureUploadFailed(destination: shown, reason: "HTTP \(sigResponse.status)")
                }
            }
        }
        return etag
    }

    private func send(_ request: HTTPRequest, shown: String) async throws(PublishError) -> HTTPResponse {
        do {
            let (response, _) = try await transport.send(request)
            return response
        } catch {
            throw .transport(destination: shown, reason: error.description)
        }
    }

    // MARK: - History

    private func latestSnapshot(_ destination: String) async throws(PublishError) -> ConfigSnapshotRecord? {
        guard let snapshots else { return nil }
        do {
            let history = try await snapshots.snapshots(source: destination)
            guard let highest = history.first else { return nil }
            // The newest accepted copy carries the ETag to match; the highest version bounds the next one.
            let latest = try await snapshots.latestSnapshot(source: destination) ?? highest
            var record = latest
            record.version = max(latest.version, highest.version)
            return record
        } catch {
            throw .store(error.description)
        }
    }

    /// Reads the destination back (so the recorded ETag is the one apps will send) and records the snapshot.
    private func readBackAndRecord(_ outcome: inout PublishOutcome, body: Data) async {
        let fetcher = ConfigFetcher(transport: transport)
        do {
            switch try await fetcher.fetch(outcome.destination) {
            case .fetched(let payload):
                if payload.body == body {
                    outcome.etag = payload.etag ?? outcome.etag
                } else {
                    outcome.warnings.append("reading \(URLRedaction.redact(outcome.destination)) back returned different bytes (a cache in front of it?); apps may see the old config until it expires")
                }
            case .notModified:
                break
            }
        } catch {
            outcome.warnings.append("could not read the published config back: \(error)")
        }
        guard let snapshots else { return }
        do {
            try await snapshots.saveSnapshot(ConfigSnapshotRecord(
                sourceURL: outcome.destination, version: outcome.version, etag: outcome.etag, rawBytes: body,
                signature: outcome.signature.flatMap { Data(base64Encoded: $0) }))
        } catch {
            outcome.warnings.append("published, but not recorded in the snapshot history (rollback to it will not be possible): \(error.description)")
        }
    }
}

/// `body` as canonical JSON with its template files' text inline (called once validation has found every file).
private func inlined(_ body: Data, _ promptFiles: PromptFileResolver) -> Data {
    guard let tree = try? JSONValue(parsing: body) else { return body }
    return Data(promptFiles.inliningTemplateFiles(in: tree).canonicalJSON.utf8)
}
