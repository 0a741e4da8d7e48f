public import Foundation
public import HybridCore

/// Reads `RouteEvent` JSON at ingest speed through the event's member table (`RouteEvent.jsonMembers`, HybridCore):
/// one byte reader, no `JSONDecoder` behind it, and every error names the member's JSON path
/// (`attempts[0].startMs: missing`).
public enum RouteEventReader {
    /// One JSON Lines line: the event, or why it is not one.
    public static func decodeLine(_ line: some ContiguousBytes) -> Result<RouteEvent, FieldEventRejection> {
        line.withUnsafeBytes { raw in
            do throws(JSONMemberError) {
                return .success(try RouteEvent.readJSON(bytes: raw))
            } catch {
                return .failure(FieldEventRejection(reasons: [error.described()]))
            }
        }
    }
}
