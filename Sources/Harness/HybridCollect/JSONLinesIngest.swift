import Foundation
import HybridCore
import HybridStore

/// `hybrid ingest FILE…`: JSON Lines files of `RouteEvent`s (what `JSONLinesEventSink` writes) into field runs,
/// each bad line named by file and line number while the good ones are kept.
public struct JSONLinesIngest: Sendable {
    /// What one file gave.
    public struct FileOutcome: Sendable, Hashable {
        /// The file.
        public var path: String
        /// Events stored for the first time.
        public var accepted: Int
        /// Events already stored.
        public var duplicates: Int
        /// `path:line: reason` for each refused line.
        public var rejected: [String]
    }

    /// Events stored per transaction by default.
    public static let chunkSize = 10_000

    /// Where events go.
    public let ingestor: FieldEventIngestor

    /// Events per transaction of this ingest.
    public let eventsPerTransaction: Int

    /// An ingest into `ingestor`'s store, `eventsPerTransaction` events per transaction.
    public init(ingestor: FieldEventIngestor, eventsPerTransaction: Int = JSONLinesIngest.chunkSize) {
        self.ingestor = ingestor
        self.eventsPerTransaction = max(1, eventsPerTransaction)
    }

    /// Reads and stores one file. Blank lines are skipped (a torn last line of a rotated file is reported).
    public func ingest(path: String) async throws -> FileOutcome {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CollectError.unreadable("\(path): cannot read (\(error.localizedDescription))")
        }
        var outcome = FileOutcome(path: path, accepted: 0, duplicates: 0, rejected: [])
        var cursor = LineCursor()
        // The next chunk is decoded while the previous one is being stored (SQLite writes on its own thread).
        var storing: (task: Task<RouteEventBatchResponse, any Error>, lines: [Int])?
        while !cursor.finished(in: data) {
            var chunk: [Result<RouteEvent, FieldEventRejection>] = []
            var lineNumbers: [Int] = []
            cursor.decode(data, upTo: eventsPerTransaction, into: &chunk, lineNumbers: &lineNumbers)
            if let storing { try await record(storing, into: &outcome) }
            storing = nil
            guard !chunk.isEmpty else { continue }
            let ingestor = self.ingestor
            let events = chunk
            storing = (Task { try await ingestor.ingest(events) }, lineNumbers)
        }
        if let storing { try await record(storing, into: &outcome) }
        return outcome
    }

    /// Where the reading of a file stands: lines are found in the raw bytes (`Data.split` costs more per line than
    /// decoding the event), a chunk at a time so the file's events are never all in memory at once.
    struct LineCursor {
        var offset = 0
        var lineNumber = 0

        func finished(in data: Data) -> Bool { offset >= data.count }

        /// Decodes lines until `limit` events are in `chunk` or the data ends; blank lines (spaces, CR) are skipped.
        mutating func decode(
            _ data: Data, upTo limit: Int, into chunk: inout [Result<RouteEvent, FieldEventRejection>],
            lineNumbers: inout [Int]
        ) {
            data.withUnsafeBytes { raw in
                while offset < raw.count, chunk.count < limit {
                    let rest = UnsafeRawBufferPointer(rebasing: raw[offset...])
                    let end = rest.firstIndex(of: UInt8(ascii: "\n")).map { offset + $0 } ?? raw.count
                    let line = UnsafeRawBufferPointer(rebasing: raw[offset..<end])
                    lineNumber += 1
                    offset = end + 1
                    guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\r") }) else { continue }
                    chunk.append(RouteEventReader.decodeLine(line))
                    lineNumbers.append(lineNumber)
                }
            }
        }
    }

    private func record(
        _ storing: (task: Task<RouteEventBatchResponse, any Error>, lines: [Int]), into outcome: inout FileOutcome
    ) async throws {
        let response = try await storing.task.value
        outcome.accepted += response.accepted
        outcome.duplicates += response.duplicates
        outcome.rejected += response.rejected.map { "\(outcome.path):\(storing.lines[$0.index]): \($0.reason)" }
    }
}
