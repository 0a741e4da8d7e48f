public import Foundation
public import HybridCore

/// A `RouteEventBatch` decoded event by event, so one malformed event is refused with its reason while the rest
/// of the batch is kept. Only a body that is not a batch at all (not JSON, no `events` array, an unknown
/// `schemaVersion`) fails as a whole.
public struct LenientEventBatch: Sendable {
    /// Each event in batch order: decoded, or the reason it could not be.
    public var events: [Result<RouteEvent, FieldEventRejection>]
    /// Events the sender says it dropped before this batch.
    public var droppedEvents: Int?

    /// Decodes `data`; throws ``CollectError`` when it is not a batch.
    public init(data: Data) throws(CollectError) {
        let decoded: Wire
        do {
            decoded = try JSONDecoder().decode(Wire.self, from: data)
        } catch {
            throw CollectError.malformedBatch(LenientEventBatch.describe(error))
        }
        guard decoded.schemaVersion == RouteEventBatch.currentSchemaVersion else {
            throw CollectError.malformedBatch(
                "schemaVersion: \(decoded.schemaVersion) is not supported (this collector reads \(RouteEventBatch.currentSchemaVersion))")
        }
        events = decoded.events.map(\.result)
        droppedEvents = decoded.droppedEvents
    }

    private struct Wire: Decodable {
        var schemaVersion: Int
        var events: [Element]
        var droppedEvents: Int?
    }

    /// One array element: decoding never fails here, so the array keeps going past a bad event.
    private struct Element: Decodable {
        var result: Result<RouteEvent, FieldEventRejection>

        init(from decoder: any Decoder) throws {
            do {
                result = .success(try RouteEvent(from: decoder))
            } catch {
                result = .failure(FieldEventRejection(reasons: [LenientEventBatch.describe(error)]))
            }
        }
    }

    /// A decoding error as "path: problem", the path relative to the event (`attempts[0].startMs: missing`).
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ codingPath: [any CodingKey]) -> String {
            // Inside an element the path starts with events[N]; the rejection already carries N as its index.
            let trimmed = codingPath.first?.stringValue == "events" ? Array(codingPath.dropFirst(2)) : codingPath
            var text = ""
            for key in trimmed {
                if let index = key.intValue { text += "[\(index)]" } else { text += text.isEmpty ? key.stringValue : ".\(key.stringValue)" }
            }
            return text.isEmpty ? "event" : text
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
