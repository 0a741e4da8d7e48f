import Foundation
@testable import HybridCore
@testable import HybridEvents
@testable import HybridTestSupport
@testable import HybridValidation
import Testing

@Suite("JSONLinesEventSink: append, size-based rotation, torn lines")
struct JSONLinesEventSinkTests {
    @Test("files rotate by size, keep the newest events in order, and hold only whole lines")
    func rotation() async throws {
        try await withTemporaryDirectory { directory in
            let lineBytes = try RouteEventLines.line(RouteEvent.fixture(10)).count
            let sink = JSONLinesEventSink(directory: directory.url, maxFileBytes: lineBytes * 3, maxRotatedFiles: 2)
            for i in 10..<30 { sink.record(RouteEvent.fixture(i)) }
            await sink.flush()
            let files = sink.files
            #expect(files.map(\.lastPathComponent) == ["events.2.jsonl", "events.1.jsonl", "events.jsonl"])
            var ids: [String] = []
            for file in files {
                let data = try Data(contentsOf: file)
                #expect(data.count <= lineBytes * 3 + 3)
                #expect(data.last == 0x0A)
                let decoded = RouteEventLines.decode(data)
                #expect(decoded.malformedLines == 0)
                ids += decoded.events.map(\.id)
            }
            // 20 events, 3 per file, 3 files kept: the 8 newest survive (2 in the current file).
            #expect(ids == (22..<30).map { "event-\($0)" })
            #expect(sink.droppedCount == 0)
        }
    }

    @Test("a torn last line is skipped and the events before and after it are kept")
    func tornLine() async throws {
        try await withTemporaryDirectory { directory in
            let first = JSONLinesEventSink(directory: directory.url)
            first.record(RouteEvent.fixture(1))
            first.record(RouteEvent.fixture(2))
            await first.flush()
            let url = first.fileURL(0)
            let handle = try FileHandle(forWritingTo: url)
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(#"{"id":"event-torn","timestamp":"2026-"#.utf8))
            try handle.close()
            // The app restarts after the crash that tore the line.
            let second = JSONLinesEventSink(directory: directory.url)
            second.record(RouteEvent.fixture(3))
            await second.flush()
            let decoded = try RouteEventLines.read(url)
            #expect(decoded.events.map(\.id) == ["event-1", "event-2", "event-3"])
            #expect(decoded.malformedLines == 1)
        }
    }

    @Test("what the exit drain waits for: every event recorded before it is in the file, without flush()")
    func exitDrainWritesEverything() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let sink = JSONLinesEventSink(directory: directory.url)
        for index in 0..<200 { sink.record(RouteEvent.fixture(index)) }
        sink.drainAtExit()  // what the `atexit` handler (ExitDrain.drainAll) runs for each live sink
        #expect(try RouteEventLines.read(sink.fileURL(0)).events.map(\.id) == (0..<200).map { "event-\($0)" })
    }

    @Test("events recorded from many tasks at once are all written as whole lines")
    func concurrentRecordsStayWhole() async throws {
        try await withTemporaryDirectory { directory in
            let sink = JSONLinesEventSink(directory: directory.url)
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<8 {
                    group.addTask { for i in 0..<50 { sink.record(RouteEvent.fixture(task * 1_000 + i)) } }
                }
            }
            await sink.flush()
            let decoded = try RouteEventLines.read(sink.fileURL(0))
            #expect(decoded.malformedLines == 0)
            #expect(Set(decoded.events.map(\.id)).count == 400)
            #expect(sink.droppedCount == 0)
        }
    }
}
