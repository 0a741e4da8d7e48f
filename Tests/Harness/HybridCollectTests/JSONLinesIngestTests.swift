import Foundation
import HybridCollect
import HybridCore
import HybridStore
import HybridTestSupport
import Testing

/// `hybrid ingest`'s file reading: lines found in raw bytes, chunks decoded while the previous one is stored.
@Suite struct JSONLinesIngestTests {
    static let chunk = 100

    @Test func badLinesAreNamedByLineAcrossChunksAndTheRestAreStored() async throws {
        try await withTemporaryDirectory { directory in
            let template = String(decoding: try JSONEncoder().encode(CollectorServerTests.event("ID")), as: UTF8.self)
            var lines: [String] = []
            for index in 0..<(Self.chunk * 2 + 5) {
                lines.append(template.replacingOccurrences(of: #""id":"ID""#, with: #""id":"e\#(index)""#))
            }
            lines[3] = "   \r"  // blank: skipped, still counted as a line
            lines[Self.chunk] = #"{"id":"torn"#
            lines[lines.count - 1] = try Self.removingKey("installId", from: template)
            let file = directory.url.appendingPathComponent("events.jsonl")
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)

            let store = SQLiteFieldEventStore(database: try HybridDatabase.inMemory())
            let ingest = JSONLinesIngest(ingestor: FieldEventIngestor(store: store), eventsPerTransaction: Self.chunk)
            let outcome = try await ingest.ingest(path: file.path)
            #expect(outcome.accepted == lines.count - 3)
            #expect(outcome.rejected.count == 2)
            #expect(outcome.rejected.first?.hasPrefix("\(file.path):\(Self.chunk + 1): ") == true)
            #expect(outcome.rejected.last == "\(file.path):\(lines.count): installId: missing")
            #expect(try await ingest.ingest(path: file.path).duplicates == lines.count - 3)
        }
    }

    /// JSONEncoder's key order differs from process to process, so a key is removed from the parsed object
    /// rather than from the text.
    static func removingKey(_ key: String, from json: String) throws -> String {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object.removeValue(forKey: key) != nil)
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }
}
