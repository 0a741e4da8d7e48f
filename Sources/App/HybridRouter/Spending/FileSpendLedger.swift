public import Foundation
public import HybridCore

/// A `SpendLedger` in one JSON file, so budget caps hold across launches without SQLite (for example in
/// Application Support).
///
/// Every `addSpend` rewrites the file atomically (temporary file, `fsync`, rename): a crash or a killed app leaves
/// the previous state or the new one, never a torn file. The file is read once, on first use. One process owns the
/// file (an app and its single router); concurrent writers in several processes would lose increments, which is
/// what the SQLite ledger is for.
public actor FileSpendLedger: SpendLedger {
    /// The JSON file.
    nonisolated let url: URL
    private var records: [SpendKey: SpendRecord]?

    /// A ledger over `url`; nothing is read or created until the first call.
    public init(url: URL) {
        self.url = url
    }

    @discardableResult
    public func addSpend(model: String, month: BillingMonth, usd: Double) async throws(SpendLedgerError) -> Double {
        try Self.checkAmount(usd, model: model, month: month)
        var updated = try loaded()
        let record = updated.adding(usd, model: model, month: month, at: Date())
        try persist(updated)
        records = updated
        return record.usd
    }

    public func spend(model: String, month: BillingMonth) async throws(SpendLedgerError) -> Double {
        try loaded()[SpendKey(model: model, month: month)]?.usd ?? 0
    }

    public func spendRecords(month: BillingMonth) async throws(SpendLedgerError) -> [SpendRecord] {
        try loaded().inMonth(month)
    }

    /// The file's version 1 layout.
    private struct FileContents: Codable {
        var version = 1
        var spend: [Row]
    }

    private struct Row: Codable {
        var model: String
        var month: String
        var usd: Double
        var requestCount: Int
        var updatedAt: Date
    }

    private func loaded() throws(SpendLedgerError) -> [SpendKey: SpendRecord] {
        if let records { return records }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let contents: FileContents?
        do {
            contents = try AtomicFile.readJSON(FileContents.self, from: url, decoder: decoder)
        } catch {
            // Never start again from zero: that would silently lift every budget cap.
            throw SpendLedgerError(.unavailable, "\(url.path): cannot read the spend ledger: \(error.reason)")
        }
        let loaded = try contents.map(records(from:)) ?? [:]
        records = loaded
        return loaded
    }

    private func records(from contents: FileContents) throws(SpendLedgerError) -> [SpendKey: SpendRecord] {
        var records: [SpendKey: SpendRecord] = [:]
        for row in contents.spend {
            guard let month = BillingMonth(row.month) else {
                throw SpendLedgerError(.unavailable, "\(url.path): cannot read the spend ledger: month '\(row.month)' is not YYYY-MM")
            }
            let record = SpendRecord(modelID: row.model, month: month, usd: row.usd, requestCount: row.requestCount, updatedAt: row.updatedAt)
            records[SpendKey(record)] = record
        }
        return records
    }

    private func persist(_ records: [SpendKey: SpendRecord]) throws(SpendLedgerError) {
        let rows = records.values
            .sorted { ($0.month, $0.modelID) < ($1.month, $1.modelID) }
            .map { Row(model: $0.modelID, month: $0.month.description, usd: $0.usd, requestCount: $0.requestCount, updatedAt: $0.updatedAt) }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try AtomicFile.writeJSON(FileContents(spend: rows), to: url, encoder: encoder)
        } catch {
            throw SpendLedgerError(.unavailable, "\(url.path): cannot write the spend ledger: \(error.reason)")
        }
    }
}
