import Foundation
public import HybridCore

/// A `SpendLedger` that lives in memory: budget caps hold for the life of the process only.
///
/// For tests, previews and apps that re-derive spend elsewhere; `FileSpendLedger` keeps it across launches.
public actor InMemorySpendLedger: SpendLedger {
    private var records: [SpendKey: SpendRecord] = [:]

    /// An empty ledger, or one seeded with `records`.
    public init(_ records: [SpendRecord] = []) {
        for record in records { self.records[SpendKey(record)] = record }
    }

    @discardableResult
    public func addSpend(model: String, month: BillingMonth, usd: Double) async throws(SpendLedgerError) -> Double {
        try Self.checkAmount(usd, model: model, month: month)
        return records.adding(usd, model: model, month: month, at: Date()).usd
    }

    public func spend(model: String, month: BillingMonth) async throws(SpendLedgerError) -> Double {
        records[SpendKey(model: model, month: month)]?.usd ?? 0
    }

    public func spendRecords(month: BillingMonth) async throws(SpendLedgerError) -> [SpendRecord] {
        records.inMonth(month)
    }
}

/// A ledger row's identity: one counter per model and month.
struct SpendKey: Hashable, Sendable {
    var model: String
    var month: BillingMonth

    init(model: String, month: BillingMonth) {
        self.model = model
        self.month = month
    }

    init(_ record: SpendRecord) {
        self.init(model: record.modelID, month: record.month)
    }
}

extension Dictionary where Key == SpendKey, Value == SpendRecord {
    /// Adds one request's spend to the model's counter for `month` and returns the updated row.
    mutating func adding(_ usd: Double, model: String, month: BillingMonth, at date: Date) -> SpendRecord {
        let key = SpendKey(model: model, month: month)
        var record = self[key] ?? SpendRecord(modelID: model, month: month, usd: 0, requestCount: 0, updatedAt: date)
        record.usd += usd
        record.requestCount += 1
        record.updatedAt = date
        self[key] = record
        return record
    }

    /// The rows of `month`, by model id (the order the SQLite ledger returns).
    func inMonth(_ month: BillingMonth) -> [SpendRecord] {
        values.filter { $0.month == month }.sorted { $0.modelID < $1.modelID }
    }
}
