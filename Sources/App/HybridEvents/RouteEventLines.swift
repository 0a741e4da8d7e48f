package import Foundation
package import HybridCore

/// The JSON Lines form of route events: one event's JSON per line, as `JSONLinesEventSink` writes and the
/// uploader's spool keeps them, and as `hybrid ingest` reads them.
package enum RouteEventLines {
    /// The events of a JSON Lines file, and how many lines could not be read.
    package struct Decoded: Sendable {
        /// The events, in file order.
        var events: [RouteEvent]
        /// Lines that were not a valid event (a line torn by a crash mid-write, or foreign text); skipped.
        var malformedLines: Int
    }

    /// One event as a line: its JSON (written through the event's member table) and a newline. Throws when a
    /// number is not finite, naming the member.
    package static func line(_ event: RouteEvent) throws -> Data {
        var data = Data(try event.jsonBytes())
        data.append(0x0A)
        return data
    }

    /// Every readable event in `data`; a malformed line (such as a torn last line) is counted and skipped, so it
    /// never costs the lines around it.
    static func decode(_ data: Data) -> Decoded {
        var decoded = Decoded(events: [], malformedLines: 0)
        for line in data.split(separator: 0x0A, omittingEmptySubsequences: true) {
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { continue }
            if let event = try? RouteEvent.readJSON(bytes: Data(line)) {
                decoded.events.append(event)
            } else {
                decoded.malformedLines += 1
            }
        }
        return decoded
    }

    /// The events of the file at `url`; none when it does not exist.
    static func read(_ url: URL) throws -> Decoded {
        guard FileManager.default.fileExists(atPath: url.path) else { return Decoded(events: [], malformedLines: 0) }
        return decode(try Data(contentsOf: url))
    }
}
