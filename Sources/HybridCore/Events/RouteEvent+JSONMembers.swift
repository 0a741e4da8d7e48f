package import Foundation

/// The wire members of a route event, read by the collector and `hybrid ingest` and written by the app's sinks.
/// A new `RouteEvent` field is a stored property, its initialiser parameter and one line here;
/// `RouteEventJSONTests` fails while a stored property has no line.
extension RouteEvent: JSONMemberObject {
    package static let jsonMembers = JSONMembers<RouteEvent>([
        .member("id", get: { $0.id }, set: { $0.id = $1 }),
        .member("timestamp", get: { $0.timestamp }, set: { $0.timestamp = $1 }),
        .member("installId", get: { $0.installId }, set: { $0.installId = $1 }),
        .member("feature", get: { $0.feature }, set: { $0.feature = $1 }),
        .member("configVersion", get: { $0.configVersion }, set: { $0.configVersion = $1 }),
        .member("configHash", get: { $0.configHash }, set: { $0.configHash = $1 }),
        .member("variant", get: { $0.variant }, set: { $0.variant = $1 }),
        .member("rolloutArm", get: { $0.rolloutArm }, set: { $0.rolloutArm = $1 }),
        .member("bucket", get: { $0.bucket }, set: { $0.bucket = $1 }),
        .member("condition", get: { $0.condition }, set: { $0.condition = $1 }),
        .member("servedBy", get: { $0.servedBy }, set: { $0.servedBy = $1 }),
        .member("servedTier", get: { $0.servedTier }, set: { $0.servedTier = $1 }),
        .member("outcome", get: { $0.outcome }, set: { $0.outcome = $1 }),
        .member("errorKind", get: { $0.errorKind }, set: { $0.errorKind = $1 }),
        .member("attempts", get: { $0.attempts }, set: { $0.attempts = $1 }),
        .member("ttftMs", get: { $0.ttftMs }, set: { $0.ttftMs = $1 }),
        .member("latencyMs", get: { $0.latencyMs }, set: { $0.latencyMs = $1 }),
        .member("inputTokens", get: { $0.inputTokens }, set: { $0.inputTokens = $1 }),
        .member("outputTokens", get: { $0.outputTokens }, set: { $0.outputTokens = $1 }),
        .member("tokensEstimated", get: { $0.tokensEstimated }, set: { $0.tokensEstimated = $1 }),
        .member("costUSD", get: { $0.costUSD }, set: { $0.costUSD = $1 }),
        .member("checks", get: { $0.checks }, set: { $0.checks = $1 }),
        .member("cacheHit", get: { $0.cacheHit }, set: { $0.cacheHit = $1 }),
        .member("labels", get: { $0.labels }, set: { $0.labels = $1 }),
        .member("content", get: { $0.content }, set: { $0.content = $1 }),
    ])

    package static var jsonPlaceholder: RouteEvent {
        RouteEvent(
            id: "", timestamp: Date(timeIntervalSince1970: 0), installId: "", feature: "", configVersion: 0,
            variant: "", outcome: .served, latencyMs: 0)
    }
}

extension RouteEvent.Attempt: JSONMemberObject {
    package static let jsonMembers = JSONMembers<RouteEvent.Attempt>([
        .member("model", get: { $0.model }, set: { $0.model = $1 }),
        .member("tier", get: { $0.tier }, set: { $0.tier = $1 }),
        .member("outcome", get: { $0.outcome }, set: { $0.outcome = $1 }),
        .member("errorKind", get: { $0.errorKind }, set: { $0.errorKind = $1 }),
        .member("skipReason", get: { $0.skipReason }, set: { $0.skipReason = $1 }),
        .member("startMs", get: { $0.startMs }, set: { $0.startMs = $1 }),
        .member("durationMs", get: { $0.durationMs }, set: { $0.durationMs = $1 }),
    ])

    package static var jsonPlaceholder: RouteEvent.Attempt {
        RouteEvent.Attempt(model: "", tier: nil, outcome: .served, startMs: 0, durationMs: 0)
    }
}

extension RouteEvent.Check: JSONMemberObject {
    package static let jsonMembers = JSONMembers<RouteEvent.Check>([
        .member("name", get: { $0.name }, set: { $0.name = $1 }),
        .member("passed", get: { $0.passed }, set: { $0.passed = $1 }),
    ])

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
// module through the generic protocol extension, they ran unspecialized (metadata lookups and retains per member),
// about half again the CPU per ingested event.
extension RouteEvent {
    /// One event from `json`; errors name the member's JSON path.
    package static func readJSON(_ json: inout JSONByteScanner) throws(JSONMemberError) -> RouteEvent {
        var value = jsonPlaceholder
        try jsonMembers.read(&json, into: &value)
        return value
    }

    /// The event as compact JSON.
    package func jsonBytes() throws(JSONMemberError) -> [UInt8] {
        var writer = JSONTextWriter()
        try Self.jsonMembers.write(self, to: &writer)
        return writer.bytes
    }

    /// One event from `bytes`, which must hold nothing after it but white space.
    package static func readJSON(bytes: some ContiguousBytes) throws(JSONMemberError) -> RouteEvent {
        try readWhole(bytes) { (json) throws(JSONMemberError) in try readJSON(&json) }
    }
}

extension RouteEvent.Attempt {
    /// One attempt from `json` (specialized, as for the event).
    package static func readJSON(_ json: inout JSONByteScanner) throws(JSONMemberError) -> RouteEvent.Attempt {
        var value = jsonPlaceholder
        try jsonMembers.read(&json, into: &value)
        return value
    }
}

extension RouteEvent.Check {
    /// One check from `json` (specialized, as for the event).
    package static func readJSON(_ json: inout JSONByteScanner) throws(JSONMemberError) -> RouteEvent.Check {
        var value = jsonPlaceholder
        try jsonMembers.read(&json, into: &value)
        return value
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
