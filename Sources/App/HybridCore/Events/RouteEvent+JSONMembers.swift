package import Foundation

/// The wire members of a route event, read by the collector and `hybrid ingest` and written by the app's sinks.
/// A new `RouteEvent` field is a stored property, its initialiser parameter and one line here;
/// `RouteEventJSONTests` fails while a stored property has no line.
extension RouteEvent: JSONMemberObject {
    package static let jsonMembers = JSONMembers<RouteEvent>([
        .member("id", \.id), .member("timestamp", get: { $0.timestamp }, set: { $0.timestamp = $1 }), .member("installId", \.installId),
        .member("feature", \.feature), .member("configVersion", \.configVersion), .member("configHash", \.configHash),
        .member("variant", \.variant), .member("rolloutArm", \.rolloutArm), .member("bucket", \.bucket),
        .member("condition", \.condition), .member("inputRule", \.inputRule), .member("servedBy", \.servedBy), .member("servedTier", \.servedTier),
        .member("outcome", \.outcome), .member("errorKind", \.errorKind), .member("attempts", \.attempts),
        .member("ttftMs", \.ttftMs), .member("latencyMs", \.latencyMs), .member("inputTokens", \.inputTokens),
        .member("outputTokens", \.outputTokens), .member("tokensEstimated", \.tokensEstimated),
        .member("costUSD", \.costUSD), .member("checks", \.checks), .member("cacheHit", \.cacheHit),
        .member("labels", \.labels), .member("content", \.content), .member("hedged", \.hedged),
    ])

    package static var jsonPlaceholder: RouteEvent {
        RouteEvent(
            id: "", timestamp: Date(timeIntervalSince1970: 0), installId: "", feature: "", configVersion: 0,
            variant: "", outcome: .served, latencyMs: 0)
    }
}

extension RouteEvent.Attempt: JSONMemberObject {
    package static let jsonMembers = JSONMembers<RouteEvent.Attempt>([
        .member("model", \.model), .member("tier", \.tier), .member("outcome", \.outcome),
        .member("errorKind", \.errorKind), .member("skipReason", \.skipReason), .member("startMs", \.startMs),
        .member("durationMs", \.durationMs), .member("inputTokens", \.inputTokens),
        .member("outputTokens", \.outputTokens), .member("costUSD", \.costUSD),
    ])

    package static var jsonPlaceholder: RouteEvent.Attempt {
        RouteEvent.Attempt(model: "", tier: nil, outcome: .served, startMs: 0, durationMs: 0)
    }
}

extension RouteEvent.Check: JSONMemberObject {
    package static let jsonMembers = JSONMembers<RouteEvent.Check>([.member("name", \.name), .member("passed", \.passed)])

    package static var jsonPlaceholder: RouteEvent.Check { RouteEvent.Check(name: "", passed: false) }
}

extension RouteEvent.Content: JSONMemberObject {
    package static let jsonMembers = JSONMembers<RouteEvent.Content>([.member("inputs", \.inputs), .member("output", \.output)])

    package static var jsonPlaceholder: RouteEvent.Content { RouteEvent.Content(inputs: [:], output: nil) }
}

extension RouteEvent.Outcome: JSONMemberValue {}
extension RouteEvent.AttemptOutcome: JSONMemberValue {}
extension ModelTier: JSONMemberValue {}

/// The upload body; the collector reads it event by event (`LenientEventBatch`), the uploader writes it here.
extension RouteEventBatch: JSONMemberObject {
    package static let jsonMembers = JSONMembers<RouteEventBatch>([
        .member("schemaVersion", \.schemaVersion), .member("events", \.events), .member("droppedEvents", \.droppedEvents),
    ])

    package static var jsonPlaceholder: RouteEventBatch { RouteEventBatch(events: []) }
}

/// The collector's answer, read by the uploader.
extension RouteEventBatchResponse: JSONMemberObject {
    package static let jsonMembers = JSONMembers<RouteEventBatchResponse>([
        .member("accepted", \.accepted), .member("duplicates", \.duplicates), .member("rejected", \.rejected),
    ])

    package static var jsonPlaceholder: RouteEventBatchResponse { RouteEventBatchResponse(accepted: 0, duplicates: 0) }
}

extension RouteEventBatchResponse.Rejection: JSONMemberObject {
    package static let jsonMembers = JSONMembers<RouteEventBatchResponse.Rejection>([
        .member("index", \.index), .member("reason", \.reason),
    ])

    package static var jsonPlaceholder: RouteEventBatchResponse.Rejection { .init(index: 0, reason: "") }
}

// Concrete entry points for the types other modules read and write in bulk (the collector, `hybrid ingest`, the
// sinks): the generic table reader and writer are specialized here, where the types are known. Called from another
// module through the generic protocol extension, they ran unspecialized (metadata lookups and retains per member).
extension RouteEvent {
    /// One event from `json`; errors name the member's JSON path.
    package static func readJSON(_ json: inout JSONByteScanner) throws(JSONMemberError) -> RouteEvent {
        var value = jsonPlaceholder
        try jsonMembers.read(&json, into: &value)
        return value
    }

    /// One event from `bytes`, which must hold nothing after it but white space.
    package static func readJSON(bytes: some ContiguousBytes) throws(JSONMemberError) -> RouteEvent {
        try readWhole(bytes) { (json) throws(JSONMemberError) in try readJSON(&json) }
    }

    /// The same over bytes in place (a JSON Lines line): not generic, so a caller in another module runs it
    /// specialized.
    package static func readJSON(bytes: UnsafeRawBufferPointer) throws(JSONMemberError) -> RouteEvent {
        try readWhole(bytes) { (json) throws(JSONMemberError) in try readJSON(&json) }
    }

    /// The event as compact JSON.
    package func jsonBytes() throws(JSONMemberError) -> [UInt8] {
        var writer = JSONTextWriter()
        try Self.jsonMembers.write(self, to: &writer)
        return writer.bytes
    }
}

extension RouteEventBatch {
    /// The batch as compact JSON (specialized, as for the event).
    package func jsonBytes() throws(JSONMemberError) -> [UInt8] {
        var writer = JSONTextWriter()
        try Self.jsonMembers.write(self, to: &writer)
        return writer.bytes
    }
}
