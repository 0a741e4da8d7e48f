public import Foundation
public import HybridTransport

extension HTTPBatchEventUploader {
    /// Where and how the uploader sends batches.
    public struct Configuration: Sendable {
        /// The collector's URL, e.g. `https://collector.example.com/v1/events`.
        var endpoint: String
        /// Sent as `Authorization: Bearer TOKEN`; from the app's configuration, never logged or stored.
        var token: String?
        /// Where queued events are kept across app restarts (`spool.jsonl`); nil keeps them in memory only.
        var spoolDirectory: URL?
        /// Events held (queued and not yet accepted) before new ones are dropped and counted.
        var maxQueuedEvents: Int
        /// Events per batch; a batch goes as soon as this many are queued.
        var maxBatchEvents: Int
        /// A smaller batch goes once its oldest event has waited this long.
        var maxBatchAge: Duration
        /// The wait after the first failed upload; doubled after each further failure, with jitter.
        var initialBackoff: Duration
        /// The longest wait between attempts (a longer `Retry-After` is still honoured).
        var maxBackoff: Duration
        /// Limits for one upload.
        var timeouts: HTTPTimeouts

        /// A configuration; the defaults suit an app in the field (batches of 500 or every 30 s, back-off from
        /// 1 s to 5 min, 10,000 events held).
        public init(
            endpoint: String, token: String? = nil, spoolDirectory: URL? = nil, maxQueuedEvents: Int = 10_000,
            maxBatchEvents: Int = 500, maxBatchAge: Duration = .seconds(30), initialBackoff: Duration = .seconds(1),
            maxBackoff: Duration = .seconds(300), timeouts: HTTPTimeouts = HTTPTimeouts(connect: .seconds(10), total: .seconds(60))
        ) {
            self.endpoint = endpoint
            self.token = token
            self.spoolDirectory = spoolDirectory
            self.maxQueuedEvents = max(1, maxQueuedEvents)
            self.maxBatchEvents = max(1, maxBatchEvents)
            self.maxBatchAge = maxBatchAge
            self.initialBackoff = initialBackoff
            self.maxBackoff = maxBackoff
            self.timeouts = timeouts
        }
    }

    /// What the uploader has done so far, for an app's diagnostics screen or a test.
    public struct Status: Sendable, Hashable {
        /// Events held and not yet accepted by the collector.
        public var pending: Int
        /// Events the collector took (stored, or already stored from an earlier upload).
        public var sent: Int
        /// Events dropped because the queue was full (reported to the collector in the next batch).
        public var droppedCount: Int
        /// Events the collector refused (malformed, or too large on their own); not sent again.
        public var rejectedCount: Int
        /// Uploads that failed (network, 5xx, 429, 401).
        public var failedUploads: Int
        /// The last upload problem, naming the endpoint and status; nil after a success.
        public var lastError: String?
        /// True after a 401: the token is wrong, so no more uploads are tried until a new uploader is made with
        /// another token (the events stay in the spool).
        public var stopped: Bool
    }
}
