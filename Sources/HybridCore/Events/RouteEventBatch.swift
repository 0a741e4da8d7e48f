/// The body of one upload to a collector: `POST {endpoint}` with `Content-Type: application/json`,
/// `Content-Encoding: gzip` and `Authorization: Bearer TOKEN`.
///
/// The collector answers 200 with a `RouteEventBatchResponse`, 400 for a malformed batch, 401 for a bad token and
/// 413 for a body over its limit.
public struct RouteEventBatch: Sendable, Codable, Hashable {
    /// The wire version this type writes.
    public static let currentSchemaVersion = 1

    /// The wire version of this batch.
    public var schemaVersion: Int
    /// The events, oldest first.
    public var events: [RouteEvent]
    /// Events the sender dropped (queue full, spool unwritable) since its previous accepted batch; nil when none.
    public var droppedEvents: Int?

    /// Creates a batch of the current schema version.
    public init(events: [RouteEvent], droppedEvents: Int? = nil) {
        self.schemaVersion = Self.currentSchemaVersion
        self.events = events
        self.droppedEvents = droppedEvents
    }
}

/// The collector's answer to a `RouteEventBatch`.
public struct RouteEventBatchResponse: Sendable, Codable, Hashable {
    /// One event the collector refused, by its position in the batch.
    public struct Rejection: Sendable, Codable, Hashable {
        /// The event's index in `RouteEventBatch.events`.
        public var index: Int
        /// Why it was refused, naming the field.
        public var reason: String

        /// Creates a rejection.
        public init(index: Int, reason: String) {
            self.index = index
            self.reason = reason
        }
    }

    /// Events stored for the first time.
    public var accepted: Int
    /// Events already stored (same id), so not stored again.
    public var duplicates: Int
    /// Events refused; the rest of the batch was kept.
    public var rejected: [Rejection]

    /// Creates a response.
    public init(accepted: Int, duplicates: Int, rejected: [Rejection] = []) {
        self.accepted = accepted
        self.duplicates = duplicates
        self.rejected = rejected
    }
}
