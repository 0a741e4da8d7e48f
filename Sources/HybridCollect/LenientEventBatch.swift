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

    /// Decodes `data`; throws ``CollectError`` when it is not a batch. The byte-level ``RouteEventReader`` reads
    /// what it can vouch for and `JSONDecoder` the rest, so the answer is always the reference's.
    public init(data: Data) throws(CollectError) {
        if let fast = Self.fastRead(data) {
            self = fast
        } else {
            self = try Self.referenceDecode(data)
        }
    }

    private init(events: [Result<RouteEvent, FieldEventRejection>], droppedEvents: Int?) {
        self.events = events
        self.droppedEvents = droppedEvents
    }

    /// The whole body through `JSONDecoder`: the reference every faster path must agree with.
    static func referenceDecode(_ data: Data) throws(CollectError) -> LenientEventBatch {
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
        return LenientEventBatch(events: decoded.events.map(\.result), droppedEvents: decoded.droppedEvents)
    }

    /// The batch read byte by byte; an event the reader cannot vouch for is handed alone to `JSONDecoder`. Nil when
    /// the body is not plainly a current batch (the reference then gives the error).
    static func fastRead(_ data: Data) -> LenientEventBatch? {
        data.withUnsafeBytes { raw -> LenientEventBatch? in
            var scanner = JSONByteScanner(raw.assumingMemoryBound(to: UInt8.self))
            guard let batch = try? readBatch(&scanner) else { return nil }
            scanner.skipWhitespace()
            return scanner.atEnd ? batch : nil
        }
    }

    private static func readBatch(_ scanner: inout JSONByteScanner) throws(JSONByteScanner.Stop) -> LenientEventBatch {
        var schemaVersion: Int?
        var events: [Result<RouteEvent, FieldEventRejection>]?
        var dropped: Int??
        guard try scanner.openObject() else { throw JSONByteScanner.Stop() }
        repeat {
            let key = try scanner.readKey()
            if scanner.matches(key, "schemaVersion"), schemaVersion == nil {
                schemaVersion = try scanner.readInt()
            } else if scanner.matches(key, "events"), events == nil {
                events = try readEvents(&scanner)
            } else if scanner.matches(key, "droppedEvents"), dropped == nil {
                dropped = .some(try scanner.readNull() ? nil : try scanner.readInt())
            } else if scanner.matches(key, "schemaVersion") || scanner.matches(key, "events") || scanner.matches(key, "droppedEvents") {
                throw JSONByteScanner.Stop()
            } else {
                try scanner.skipValue()
            }
        } while try scanner.continues(before: UInt8(ascii: "}"))
        guard schemaVersion == RouteEventBatch.currentSchemaVersion, let events else { throw JSONByteScanner.Stop() }
        return LenientEventBatch(events: events, droppedEvents: dropped ?? nil)
    }

    private static func readEvents(_ scanner: inout JSONByteScanner) throws(JSONByteScanner.Stop)
        -> [Result<RouteEvent, FieldEventRejection>]
    {
        var events: [Result<RouteEvent, FieldEventRejection>] = []
        guard try scanner.openArray() else { return events }
        repeat {
            scanner.skipWhitespace()
            let start = scanner.position
            if let event = try? RouteEventReader.readEvent(&scanner) {
                events.append(.success(event))
            } else {
                // Valid JSON the reader declined: JSONDecoder decodes this element, as it would in the batch.
                scanner.position = start
                try scanner.skipValue()
                events.append(referenceDecodeElement(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(scanner.bytes)[start..<scanner.position])))
            }
        } while try scanner.continues(before: UInt8(ascii: "]"))
        return events
    }

    /// One array element through `JSONDecoder` inside an `events` array, not alone: some errors (a number too large
    /// for its type) read differently at the top level of a document.
    private static func referenceDecodeElement(_ element: UnsafeRawBufferPointer) -> Result<RouteEvent, FieldEventRejection> {
        var data = Data(#"{"events":["#.utf8)
        data.append(contentsOf: element)
        data.append(contentsOf: "]}".utf8)
        do {
            let decoded = try JSONDecoder().decode(Elements.self, from: data)
            return decoded.events.first?.result ?? .failure(FieldEventRejection(reasons: ["event: missing"]))
        } catch {
            return .failure(FieldEventRejection(reasons: [describe(error)]))
        }
    }

    private struct Elements: Decodable {
        var events: [Element]
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
