import Foundation
import HybridCore
@testable import HybridEvents
import HybridProjectTestSupport
import HybridTestSupport
import Testing

/// A process that routes requests with a `JSONLinesEventSink` and returns from `main` at once, awaiting nothing, as
/// a command-line tool does: every event it handed the sink must be in the file (`hybrid-events-exit`).
@Suite("JSONLinesEventSink: a process that exits right after its requests loses no event")
struct JSONLinesEventSinkExitTests {
    static func child() throws -> URL {
        try BuiltExecutable.find("hybrid-events-exit", override: "HYBRID_EVENTS_EXIT", packageRoot: ProjectRoot.url)
    }

    @Test("served requests and a cancelled one are all in the file after the child returns from main")
    func everyEventIsOnDiskAfterExit() async throws {
        try await withTemporaryDirectory { directory in
            let installId = "exit-\(UUID().uuidString)"
            let outcome = try await ChildProcess.run(try Self.child(), [directory.url.path, installId, "50"])
            try #require(outcome.status == 0, "hybrid-events-exit failed: \(outcome.stderr)")
            #expect(outcome.stdout == "served 50\ncancelled\n")

            let decoded = try RouteEventLines.read(directory.url.appendingPathComponent("events.jsonl"))
            #expect(decoded.malformedLines == 0)
            #expect(decoded.events.map(\.outcome) == Array(repeating: .served, count: 50) + [.failed])
            #expect(decoded.events.last?.errorKind == "cancelled")
            #expect(decoded.events.allSatisfy { $0.installId == installId })
            #expect(decoded.events.prefix(50).allSatisfy { $0.servedBy == "scripted" })
            #expect(Set(decoded.events.map(\.id)).count == 51)
        }
    }
}
