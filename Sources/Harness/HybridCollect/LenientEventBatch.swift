public import Foundation
public import HybridCore

/// A `RouteEventBatch` read event by event, so one malformed event is refused with its reason while the rest of
/// the batch is kept. Only a body that is not a batch at all (not JSON, no `events` array, an unknown
/// `schemaVersion`) fails as a whole. Events go through their member table (`RouteEvent.jsonMembers`), the one
/// reader of events; errors name the member.
public struct LenientEventBatch: Sendable {
    /// Each event in batch order: decoded, or the reason it could not be.
    public var events: [Result<RouteEvent, FieldEventRejection>]
    /// Events the sender says it dropped before this batch.
    public var droppedEvents: Int?

    /// Reads `data`; throws ``CollectError`` when it is not a batch.
    public init(data: Data) throws(CollectError) {
        let read: Result<LenientEventBatch, JSONMemberError> = data.withUnsafeBytes { raw in
            var json = JSONByteScanner(raw.assumingMemoryBound(to: UInt8.self))
            return Result { () throws(JSONMemberError) -> LenientEventBatch in
                let batch = try Self.readBatch(&json)
                json.skipWhitespace()
                guard json.atEnd else { throw JSONMemberError("unexpected text after the batch") }
                return batch
            }
        }
        switch read {
        case .success(let batch): self = batch
        case .failure(let error): throw CollectError.malformedBatch(error.described(root: "body"))
        }
    }

    private init(events: [Result<RouteEvent, FieldEventRejection>], droppedEvents: Int?) {
        self.events = events
        self.droppedEvents = droppedEvents
    }

    /// The batch's own members by hand (events are lenient, so not through `RouteEventBatch.jsonMembers`).
    private static func readBatch(_ json: inout JSONByteScanner) throws(JSONMemberError) -> LenientEventBatch {
        var schemaVersion: Int?
        var events: [Result<RouteEvent, FieldEventRejection>]?
        var dropped: Int??
        guard try scanning("an object", { () throws(JSONByteScanner.Stop) in try json.openObject() }) else {
            throw JSONMemberError(path: "schemaVersion", "missing")
        }
        repeat {
            let key = try scanning("a member name") { () throws(JSONByteScanner.Stop) in
                let key = try json.readString()
                try json.expect(UInt8(ascii: ":"))
                return key
            }
            switch key {
            case "schemaVersion":
                guard schemaVersion == nil else { throw JSONMemberError(path: key, "duplicate member") }
                schemaVersion = try member(key) { (json) throws(JSONMemberError) in try Int.readJSON(&json) }
            case "events":
                guard events == nil else { throw JSONMemberError(path: key, "duplicate member") }
                events = try member(key) { (json) throws(JSONMemberError) in try readEvents(&json) }
            case "droppedEvents":
                guard dropped == nil else { throw JSONMemberError(path: key, "duplicate member") }
                dropped = .some(try member(key) { (json) throws(JSONMemberError) in try Int?.readJSON(&json) })
            default:
                try scanning("a JSON value") { () throws(JSONByteScanner.Stop) in try json.skipValue() }
            }
        } while try scanning("`,` or `}`", { () throws(JSONByteScanner.Stop) in try json.continues(before: UInt8(ascii: "}")) })
        guard let schemaVersion else { throw JSONMemberError(path: "schemaVersion", "missing") }
        guard schemaVersion == RouteEventBatch.currentSchemaVersion else {
            throw JSONMemberError(
                path: "schemaVersion",
                "\(schemaVersion) is not supported (this collector reads \(RouteEventBatch.currentSchemaVersion))")
        }
        guard let events else { throw JSONMemberError(path: "events", "missing") }
        return LenientEventBatch(events: events, droppedEvents: dropped ?? nil)

        func member<T>(_ name: String, _ read: (inout JSONByteScanner) throws(JSONMemberError) -> T) throws(JSONMemberError) -> T {
            do { return try read(&json) } catch { throw error.inside(name) }
        }
    }

    /// The events array: a bad event becomes its rejection and the reader goes on at the next element, as long
    /// as the element is JSON at all.
    private static func readEvents(_ json: inout JSONByteScanner) throws(JSONMemberError)
        -> [Result<RouteEvent, FieldEventRejection>]
    {
        var events: [Result<RouteEvent, FieldEventRejection>] = []
        guard try scanning("an array", { () throws(JSONByteScanner.Stop) in try json.openArray() }) else { return events }
        repeat {
            json.skipWhitespace()
            let start = json.position
            do {
                events.append(.success(try RouteEvent.readJSON(&json)))
            } catch {
                json.position = start
                do {
                    try json.skipValue()
                } catch {
                    throw JSONMemberError(path: "[\(events.count)]", "not valid JSON")
                }
                events.append(.failure(FieldEventRejection(reasons: [error.described()])))
            }
        } while try scanning("`,` or `]`", { () throws(JSONByteScanner.Stop) in try json.continues(before: UInt8(ascii: "]")) })
        return events
    }
}
