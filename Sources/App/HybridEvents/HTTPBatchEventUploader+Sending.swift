import Foundation
import HybridCore
import HybridTransport

/// How the collector answered one upload.
enum UploadOutcome: Sendable {
    /// 200 with the collector's counts.
    case accepted(RouteEventBatchResponse)
    /// Worth trying again later (network error, 5xx, 429), after at least `retryAfter` when the server said.
    case retry(retryAfter: Duration?, reason: String)
    /// 401/403: the token is wrong; retrying will not help.
    case unauthorized(reason: String)
    /// 400: the collector cannot read the batch; sending it again will not help.
    case malformed(reason: String)
    /// 413: the body is over the collector's limit.
    case tooLarge(reason: String)
}

extension HTTPBatchEventUploader {
    /// Sends the oldest queued events as one batch and applies the collector's answer.
    func sendOneBatch() async {
        let batch = Array(queue.prefix(batchLimit))
        guard !batch.isEmpty else { return }
        let drops = droppedCount - reportedDrops
        let body = RouteEventBatch(events: batch, droppedEvents: drops > 0 ? drops : nil)
        let outcome = await post(body)
        apply(outcome, sent: batch.count, drops: drops)
    }

    private func apply(_ outcome: UploadOutcome, sent count: Int, drops: Int) {
        switch outcome {
        case .accepted(let response):
            reportedDrops += drops
            status.sent += response.accepted + response.duplicates
            status.rejectedCount += response.rejected.count
            status.lastError = nil
            consecutiveFailures = 0
            retryAt = nil
            removeFirst(count)
        case .retry(let retryAfter, let reason):
            fail(reason)
            retryAt = .now + backoff(retryAfter: retryAfter)
        case .unauthorized(let reason):
            fail(reason)
            status.stopped = true
        case .malformed(let reason):
            status.lastError = reason
            status.rejectedCount += count
            removeFirst(count)
        case .tooLarge(let reason) where count > 1:
            status.lastError = reason
            batchLimit = max(1, count / 2)
        case .tooLarge(let reason):
            status.lastError = reason
            status.rejectedCount += 1
            removeFirst(1)
        }
    }

    private func fail(_ reason: String) {
        status.failedUploads += 1
        status.lastError = reason
        consecutiveFailures += 1
    }

    /// Forgets the first `count` queued events (accepted or rejected) and rewrites the spool without them.
    private func removeFirst(_ count: Int) {
        queue.removeFirst(min(count, queue.count))
        let released = count
        inbox.withLock { $0.held = max(0, $0.held - released) }
        // The rest keep the age they arrived with: a batch that went because it was full does not make the
        // events queued behind it due (sending them at once made ever smaller batches the faster uploads were).
        var left = count
        while left > 0, let first = arrivals.first {
            if first.count <= left {
                left -= first.count
                arrivals.removeFirst()
            } else {
                arrivals[0].count -= left
                left = 0
            }
        }
        if queue.isEmpty { arrivals = [] }
        rewriteSpool()
    }

    /// The spool without the events gone: the queue (what the inbox holds is not in the spool yet).
    private func rewriteSpool() {
        guard configuration.spoolDirectory != nil else { return }
        // Encoded before taking the lock, so a long queue does not hold up an exit's drain.
        var data = Data()
        do {
            for event in queue { data.append(try RouteEventLines.line(event)) }
        } catch {
            status.lastError = "spool: \(error)"
            return
        }
        let failure = spool.withLock { appender -> String? in
            guard let appender else { return nil }
            appender.close()
            do {
                try AtomicFile.write(data, to: appender.url)
                return nil
            } catch {
                return "spool \(appender.url.path): \(error)"
            }
        }
        if let failure { status.lastError = failure }
    }

    /// The wait before the next attempt: `initialBackoff` doubled per consecutive failure up to `maxBackoff`, times
    /// a random factor in 0.5…1 (so a fleet that failed together does not retry together), or the server's
    /// `Retry-After` when longer.
    func backoff(retryAfter: Duration?) -> Duration {
        let exponent = min(max(0, consecutiveFailures - 1), 30)
        let base = min(configuration.maxBackoff, configuration.initialBackoff * (1 << exponent))
        let jittered = base * Double.random(in: 0.5...1)
        guard let retryAfter else { return jittered }
        return max(jittered, retryAfter)
    }

    /// One POST of `batch`, gzip-compressed, and what its answer means.
    private func post(_ batch: RouteEventBatch) async -> UploadOutcome {
        let endpoint = configuration.endpoint
        guard let json = try? batch.jsonBytes(), let gzipped = Gzip.compress(Data(json)) else {
            return .malformed(reason: "could not encode a batch of \(batch.events.count) events")
        }
        var headers = HTTPHeaders([("Content-Type", "application/json"), ("Content-Encoding", "gzip")])
        if let token = configuration.token { headers.add(name: "Authorization", value: "Bearer \(token)") }
        let request = HTTPRequest(
            method: "POST", url: endpoint, headers: headers, body: gzipped, timeouts: configuration.timeouts,
            maxBodyBytes: 1 << 20)
        let response: HTTPResponse, body: Data
        do {
            (response, body) = try await transport.send(request)
        } catch {
            return .retry(retryAfter: nil, reason: "POST \(URLRedaction.redact(endpoint)): \(error)")
        }
        return Self.outcome(status: response.status, headers: response.headers, body: body, endpoint: endpoint)
    }

    private static func outcome(status: Int, headers: HTTPHeaders, body: Data, endpoint: String) -> UploadOutcome {
        let what = "POST \(URLRedaction.redact(endpoint)) answered \(status)"
        switch status {
        case 200..<300:
            guard let decoded = try? RouteEventBatchResponse.readJSON(bytes: body) else {
                return .retry(retryAfter: nil, reason: "\(what) with a body that is not a RouteEventBatchResponse")
            }
            return .accepted(decoded)
        case 401, 403: return .unauthorized(reason: "\(what): check the collector token; uploads stopped")
        case 413: return .tooLarge(reason: "\(what): batch over the collector's size limit")
        case 400, 422: return .malformed(reason: "\(what): \(String(decoding: body.prefix(200), as: UTF8.self))")
        default: return .retry(retryAfter: RetryAfter.duration(from: headers), reason: what)
        }
    }
}
