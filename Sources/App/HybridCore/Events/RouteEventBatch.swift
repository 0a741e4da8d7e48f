/// The body of one upload to a collector: `POST {endpoint}` with `Content-Type: application/json`,
/// `Content-Encoding: gzip` and `Authorization: Bearer TOKEN`.
///
/// The collector answers 200 with a `RouteEventBatchResponse`, 400 for a malformed batch, 401 for a bad token and
/// 413 for a body over its limit.
package struct RouteEventBatch: Sendable, Codable, Hashable {
    /// The wire version this type writes.
    package static let currentSchemaVersion = 1

    /// The wire version of this batch.
    var schemaVersion: Int
    /// The events, oldest first.
    package var events: [RouteEvent]
    /// Events the sender dropped (queue full, spool unwritable) since its previous accepted batch; nil when none.
    var droppedEvents: Int?

    /// Creates a batch of the current schema version.
    package init(events: [RouteEvent], droppedEvents: Int? = nil) {
        self.schemaVersion = Self.currentSchemaVersion
        self.events = events
        self.droppedEvents = droppedEvents
    }
}

/// The collector's answer to a `RouteEventBatch`.
package struct RouteEventBatchResponse: Sendable, Codable, Hashable {
    /// One event the collector refused, by its position in the batch.
    package struct Rejection: Sendable, Codable, Hashable {
        /// The event's index in `RouteEventBatch.events`.
        package var index: Int
        /// Why it was refused, naming the field.
        package var reason: String

        /// Creates a rejection.
        package init(index: Int, reason: String) {
            self.index = index
            self.reason = reason
        }
    }

    /// Events stored for the first time.
    package var accepted: Int
    /// Events already stored (same id), so not stored again.
    package var duplicates: Int
    /// Events refused; the rest of the batch was kept.
    package var rejected: [Rejection]

    /// Creates a response.
    package init(accepted: Int, duplicates: Int, rejected: [Rejection] = []) {
        self.accepted = accepted
        self.duplicates = duplicates
        self.rejected = rejected
    }
}
