public import Foundation
public import HybridCore
import GRDB

/// A model output kept for reuse, keyed by a hash of (model, rendered request, options). A row of `response_cache`.
///
/// The caller computes `requestHash` over everything that changes the answer (model id, rendered messages,
/// schema, options, seed) and nothing secret: API keys and headers must stay out of both the hash input and the row.
public struct CachedResponseRecord: Sendable, Hashable {
    /// Hash of everything that changes the answer; the table's primary key.
    public var requestHash: String
    /// Configured model id that produced the answer.
    public var modelID: String
    /// The model's text as received.
    public var text: String
    /// The parsed structured output, when the request had a schema.
    public var structured: JSONValue?
    /// Usage of the original call (a cache hit costs nothing; reports show what it would have cost).
    public var usage: TokenUsage
    /// Timings of the original call, in milliseconds.
    public var ttftMs: Double?
    /// Total time of the original call, in milliseconds.
    public var totalMs: Double
    /// The provider's finish reason as text (`stop`, `length`, …); nil when unknown.
    public var finishReason: String?
    /// When the response was stored (millisecond precision once stored).
    public var createdAt: Date

    /// Creates a cache entry; `requestHash` must not be computed over secrets.
    public init(
        requestHash: String,
        modelID: String,
        text: String,
        structured: JSONValue? = nil,
        usage: TokenUsage,
        ttftMs: Double? = nil,
        totalMs: Double,
        finishReason: String? = nil,
        createdAt: Date = Date()
    ) {
        self.requestHash = requestHash
        self.modelID = modelID
        self.text = text
        self.structured = structured
        self.usage = usage
        self.ttftMs = ttftMs
        self.totalMs = totalMs
        self.finishReason = finishReason
        self.createdAt = createdAt
    }
}

extension CachedResponseRecord: StoredRecord {
    static let databaseTableName = "response_cache"

    enum Columns {
        static let requestKey = Column("request_key")
        static let requestHash = Column("request_hash")
        static let modelID = Column("model_id")
        static let text = Column("text")
        static let structured = Column("structured_json")
        static let promptTokens = Column("prompt_tokens")
        static let completionTokens = Column("completion_tokens")
        static let cachedTokens = Column("cached_tokens")
        static let reasoningTokens = Column("reasoning_tokens")
        static let usageEstimated = Column("usage_estimated")
        static let ttftMs = Column("ttft_ms")
        static let totalMs = Column("total_ms")
        static let finishReason = Column("finish_reason")
        static let createdAt = Column("created_at")
    }

    init(row: Row) throws {
        let structuredText: String? = try row.decode(forColumn: Columns.structured)
        self.init(
            requestHash: try row.decode(forColumn: Columns.requestHash),
            modelID: try row.decode(forColumn: Columns.modelID),
            text: try row.decode(forColumn: Columns.text),
            structured: try structuredText.map { try StoreJSON.value(from: $0, column: "structured_json") },
            usage: TokenUsage(
                promptTokens: try row.decode(forColumn: Columns.promptTokens),
                completionTokens: try row.decode(forColumn: Columns.completionTokens),
                cachedTokens: try row.decode(forColumn: Columns.cachedTokens),
                reasoningTokens: try row.decode(forColumn: Columns.reasoningTokens),
                isEstimated: try row.decode(forColumn: Columns.usageEstimated)
            ),
            ttftMs: try row.decode(forColumn: Columns.ttftMs),
            totalMs: try row.decode(forColumn: Columns.totalMs),
            finishReason: try row.decode(forColumn: Columns.finishReason),
            createdAt: try row.decode(forColumn: Columns.createdAt)
        )
    }

    /// The cache's integer key for `requestHash` (schema v6): FNV-1a over its UTF-8 bytes, fixed forever because
    /// stored keys must match the ones later lookups compute (Swift's `Hasher` is seeded per process).
    static func requestKey(_ requestHash: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in requestHash.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }

    /// The columns `replaceSQL` writes, in the order of `replaceValues()`.
    static let replaceColumns = [
        Columns.requestKey, Columns.requestHash, Columns.modelID, Columns.text, Columns.structured, Columns.promptTokens,
        Columns.completionTokens, Columns.cachedTokens, Columns.reasoningTokens, Columns.usageEstimated, Columns.ttftMs,
        Columns.totalMs, Columns.finishReason, Columns.createdAt,
    ]

    /// `INSERT OR REPLACE INTO response_cache (…) VALUES (?, …)`: a run stores one entry per sample, and the record
    /// path (a column dictionary per row) was a fifth of the store's time.
    static let replaceSQL =
        "INSERT OR REPLACE INTO response_cache (\(replaceColumns.map(\.name).joined(separator: ", "))) VALUES ("
        + Array(repeating: "?", count: replaceColumns.count).joined(separator: ", ") + ")"

    /// The values of `replaceColumns`, validated (non-finite timings refused).
    func replaceValues() throws -> [(any DatabaseValueConvertible)?] {
        var sink = ValueListSink()
        try addReplaceValues(to: &sink)
        return sink.values
    }

    /// Hands the values of `replaceColumns` to `sink` in order, validated (non-finite timings refused).
    func addReplaceValues(to sink: inout some ColumnSink) throws {
        if !totalMs.isFinite || !(ttftMs?.isFinite ?? true) {
            throw StoreError.invalidValue(field: "cached response \(requestHash) timings", reason: "not a finite number")
        }
        sink.add(Int(Self.requestKey(requestHash)))
        sink.add(requestHash)
        sink.add(modelID)
        sink.add(text)
        sink.add(try structured.map { try StoreJSON.encode($0, field: "cached structured output") })
        sink.add(usage.promptTokens)
        sink.add(usage.completionTokens)
        sink.add(usage.cachedTokens)
        sink.add(usage.reasoningTokens)
        sink.add(usage.isEstimated)
        sink.add(ttftMs)
        sink.add(totalMs)
        sink.add(finishReason)
        sink.add(StoreDate.text(createdAt))
    }

    func encode(to container: inout PersistenceContainer) throws {
        for (column, value) in zip(Self.replaceColumns, try replaceValues()) { container[column] = value }
    }
}
