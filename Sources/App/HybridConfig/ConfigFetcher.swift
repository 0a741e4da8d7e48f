package import Foundation
public import HybridTransport
import HybridCrypto

/// Fetches a config payload over HTTP(S) with conditional requests, or reads it from a `file://` URL.
///
/// HTTPS is required except for loopback hosts (127.0.0.0/8, `localhost`, `[::1]`), where tests and local tools run.
/// Bodies larger than `maxBodyBytes` and transfers past the time limits fail without touching the config in force.
public struct ConfigFetcher: Sendable {
    /// Limits for one fetch.
    public struct Options: Sendable {
        /// Larger bodies are refused. Default 2 MiB.
        var maxBodyBytes: Int
        /// Connect, first-byte and total limits for each request (the detached `.sig` included).
        var timeouts: HTTPTimeouts

        /// Creates limits; defaults are 2 MiB and 5 s connect, 10 s first byte, 20 s total.
        public init(
            maxBodyBytes: Int = 2 * 1024 * 1024,
            timeouts: HTTPTimeouts = HTTPTimeouts(connect: .seconds(5), firstByte: .seconds(10), total: .seconds(20))
        ) {
            self.maxBodyBytes = maxBodyBytes
            self.timeouts = timeouts
        }
    }

    /// What a fetch produced.
    package enum Outcome: Sendable, Equatable {
        /// 304: the copy identified by the ETag sent is still current.
        case notModified(etag: String?)
        /// 200 with a body.
        case fetched(FetchedPayload)
    }

    /// A body as received, with the headers the loader needs.
    package struct FetchedPayload: Sendable, Equatable {
        /// The URL as requested (with any query): the last-known-good cache is keyed by it.
        var url: String
        /// The HTTP status (200; file sources report 200 too).
        var status: Int
        /// The payload bytes exactly as received.
        package var body: Data
        /// The server's ETag (a content hash for `file://`), sent back as `If-None-Match` next time.
        package var etag: String?
        /// Base64 Ed25519 signature from `X-Hybrid-Signature` or the detached `.sig`, when there was one.
        package var signature: String?
    }

    /// Header that carries the base64 signature of the body.
    package static let signatureHeader = "X-Hybrid-Signature"

    /// The HTTP client (`CurlTransport` in production).
    let transport: any HTTPTransport
    /// Size and time limits.
    var options: Options

    /// Creates a fetcher over `transport`; it keeps no state between fetches (the caller keeps the ETag).
    public init(transport: any HTTPTransport = URLSessionTransport.shared, options: Options = Options()) {
        self.transport = transport
        self.options = options
    }

    /// Fetches `url`, sending `If-None-Match: etag` when given.
    ///
    /// - Parameter wantSignature: when the body carries no signature header, also fetch the detached `URL.sig`.
    package func fetch(_ url: String, etag: String? = nil, wantSignature: Bool = false) async throws(ConfigError) -> Outcome {
        switch try Self.checkSource(url) {
        case .file(let path):
            return try readFile(url: url, path: path, etag: etag, wantSignature: wantSignature)
        case .http:
            break
        }
        var headers = HTTPHeaders([("Accept", "application/json")])
        if let etag { headers.add(name: "If-None-Match", value: etag) }
        let (response, body) = try await get(url, headers: headers, maxBody: options.maxBodyBytes)
        switch response.status {
        case 304:
            return .notModified(etag: response.headers["ETag"] ?? etag)
        case 200:
            var signature = response.headers[Self.signatureHeader]
            if signature == nil && wantSignature {
                signature = try await detachedSignature(for: url)
            }
            return .fetched(FetchedPayload(url: url, status: 200, body: body, etag: response.headers["ETag"], signature: signature))
        default:
            throw .httpStatus(url: URLRedaction.redact(url), status: response.status)
        }
    }

    private func get(_ url: String, headers: HTTPHeaders, maxBody: Int) async throws(ConfigError) -> (HTTPResponse, Data) {
        let request = HTTPRequest(method: "GET", url: url, headers: headers, timeouts: options.timeouts, maxBodyBytes: maxBody)
        let response: HTTPResponse
        do {
            response = try await transport.execute(request)
        } catch {
            throw Self.map(error, url: URLRedaction.redact(url), limit: maxBody)
        }
        var body = Data()
        do {
            for try await chunk in response.body {
                body.append(chunk)
                // Enforced here too: a transport that ignores maxBodyBytes must not make us buffer 20 MB.
                if body.count > maxBody { throw TransportError.bodyTooLarge(url: url, limit: maxBody) }
            }
        } catch let error as TransportError {
            throw Self.map(error, url: URLRedaction.redact(url), limit: maxBody)
        } catch {
            throw .fetchFailed(url: URLRedaction.redact(url), reason: String(describing: error))
        }
        if let declared = response.headers["Content-Length"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }),
            response.status == 200, declared != body.count
        {
            throw .fetchFailed(url: URLRedaction.redact(url), reason: "truncated body: received \(body.count) of \(declared) bytes")
        }
        return (response, body)
    }

    private func detachedSignature(for url: String) async throws(ConfigError) -> String? {
        guard var components = URLComponents(string: url) else { return nil }
        components.path += ".sig"
        guard let sigURL = components.string else { return nil }
        let (response, body) = try await get(sigURL, headers: HTTPHeaders(), maxBody: 4096)
        guard response.status == 200 else { return nil }
        return String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func readFile(url: String, path: String, etag: String?, wantSignature: Bool) throws(ConfigError) -> Outcome {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        if let size = attributes?[.size] as? Int, size > options.maxBodyBytes {
            throw .bodyTooLarge(url: url, limit: options.maxBodyBytes)
        }
        guard let body = FileManager.default.contents(atPath: path) else {
            throw .fileAccess(path: path, reason: "cannot read the file (missing or not readable)")
        }
        if body.count > options.maxBodyBytes { throw .bodyTooLarge(url: url, limit: options.maxBodyBytes) }
        // A content hash stands in for the ETag so file sources get the same 304 path as HTTP.
        let digest = SHA256.hash(data: body).prefix(16).map { String(format: "%02x", $0) }.joined()
        let fileETag = "\"sha256-\(digest)\""
        if let etag, etag == fileETag { return .notModified(etag: etag) }
        var signature: String?
        if wantSignature, let sig = FileManager.default.contents(atPath: path + ".sig") {
            signature = String(decoding: sig, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return .fetched(FetchedPayload(url: url, status: 200, body: body, etag: fileETag, signature: signature))
    }

    private static func map(_ error: TransportError, url: String, limit: Int) -> ConfigError {
        switch error {
        case .bodyTooLarge: .bodyTooLarge(url: url, limit: limit)
        case .invalidURL(let detail): .insecureSource(url: url, reason: "invalid URL (\(detail))")
        case .timedOut(_, let phase, let after): .fetchFailed(url: url, reason: "\(phase.rawValue) timeout after \(after)")
        case .connectionFailed(_, let detail): .fetchFailed(url: url, reason: "connection failed: \(detail)")
        case .cancelled: .fetchFailed(url: url, reason: "cancelled")
        case .failed(_, let detail): .fetchFailed(url: url, reason: detail)
        }
    }

    // MARK: - Source checks

    /// Where a source URL points.
    package enum SourceKind: Sendable, Equatable {
        case file(path: String)
        case http
    }

    /// Accepts `https://`, `http://` to loopback only, and `file://`; refuses everything else with a reason.
    /// Errors show the URL without query, fragment or credentials (they may carry tokens).
    package static func checkSource(_ url: String) throws(ConfigError) -> SourceKind {
        let shown = URLRedaction.redact(url)
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
            throw .insecureSource(url: shown, reason: "not an absolute URL")
        }
        switch scheme {
        case "file":
            guard !components.path.isEmpty else { throw .insecureSource(url: shown, reason: "file URL without a path") }
            return .file(path: components.path)
        case "https":
            guard let host = components.host, !host.isEmpty else { throw .insecureSource(url: shown, reason: "no host") }
            return .http
        case "http":
            guard let host = components.host, !host.isEmpty else { throw .insecureSource(url: shown, reason: "no host") }
            guard isLoopback(host: host) else {
                throw .insecureSource(url: shown, reason: "plain HTTP is allowed only for loopback hosts; use https")
            }
            return .http
        default:
            throw .insecureSource(url: shown, reason: "scheme \"\(scheme)\" not supported; use https, http on loopback, or file")
        }
    }

    /// True for 127.0.0.0/8, `localhost` and `::1` (with or without brackets).
    static func isLoopback(host: String) -> Bool {
        let h = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if h == "localhost" || h == "::1" || h == "0:0:0:0:0:0:0:1" { return true }
        let octets = h.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0] == "127" else { return false }
        return octets.allSatisfy { part in Int(part).map { (0...255).contains($0) && String($0) == part } ?? false }
    }
}
