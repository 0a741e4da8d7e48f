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

    /// Events stored per transaction.
    public static let chunkSize = 10_000

    /// Where events go.
    public let ingestor: FieldEventIngestor

    /// An ingest into `ingestor`'s store.
    public init(ingestor: FieldEventIngestor) {
        self.ingestor = ingestor
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
        var chunk: [Result<RouteEvent, FieldEventRejection>] = []
        var lineNumbers: [Int] = []
        for (offset, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\r") }) else { continue }
            chunk.append(RouteEventReader.decodeLine(line))
            lineNumbers.append(offset + 1)
            if chunk.count == Self.chunkSize {
                try await flush(&chunk, &lineNumbers, into: &outcome)
            }
        }
        try await flush(&chunk, &lineNumbers, into: &outcome)
        return outcome
    }

    private func flush(
        _ chunk: inout [Result<RouteEvent, FieldEventRejection>], _ lines: inout [Int], into outcome: inout FileOutcome
    ) async throws {
        guard !chunk.isEmpty else { return }
        let response = try await ingestor.ingest(chunk)
        outcome.accepted += response.accepted
        outcome.duplicates += response.duplicates
        outcome.rejected += response.rejected.map { "\(outcome.path):\(lines[$0.index]): \($0.reason)" }
        chunk.removeAll(keepingCapacity: true)
        lines.removeAll(keepingCapacity: true)
    }
}
