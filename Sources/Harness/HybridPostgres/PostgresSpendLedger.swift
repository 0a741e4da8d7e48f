import Foundation
public import HybridCore
import HybridStore

/// The PostgreSQL `SpendLedger`: monthly spend per model in `spend`, so budget caps hold across every machine
/// that shares the database.
public final class PostgresSpendLedger: SpendLedger {
    /// The database and its connection pool.
    public let database: PostgresDatabase

    /// A ledger over an open database (which other stores may share).
    public init(database: PostgresDatabase) {
        self.database = database
    }

    @discardableResult
    public func addSpend(model: String, month: BillingMonth, usd: Double) async throws(SpendLedgerError) -> Double {
        try Self.checkAmount(usd, model: model, month: month)
        return try await SpendLedgerError.mapping { () async throws(StoreError) in try await add(model: model, month: month, usd: usd) }
    }

    private func add(model: String, month: BillingMonth, usd: Double) async throws(StoreError) -> Double {
        // One statement, so concurrent adders on any machine never lose an increment.
        let rows = try await database.rows(
            "add spend for \(model) in \(month)",
            """
            INSERT INTO spend (model_id, month, usd, request_count, updated_at) VALUES (\(model), \(month.description), \
            \(usd), 1, \(Date().storedPrecision))
            ON CONFLICT (model_id, month) DO UPDATE SET usd = spend.usd + excluded.usd, \
            request_count = spend.request_count + 1, updated_at = excluded.updated_at
            RETURNING usd
            """)
        return try decode { try rows.first?.decode(Double.self) ?? usd }
    }

    public func spend(model: String, month: BillingMonth) async throws(SpendLedgerError) -> Double {
        try await SpendLedgerError.mapping { () async throws(StoreError) in try await read(model: model, month: month) }
    }

    private func read(model: String, month: BillingMonth) async throws(StoreError) -> Double {
        let rows = try await database.rows(
            "read spend for \(model) in \(month)",
            "SELECT usd FROM spend WHERE model_id = \(model) AND month = \(month.description)")
        return try decode { try rows.first?.decode(Double.self) ?? 0 }
    }

    public func spendRecords(month: BillingMonth) async throws(SpendLedgerError) -> [SpendRecord] {
        try await SpendLedgerError.mapping { () async throws(StoreError) in try await records(month: month) }
    }

    private func records(month: BillingMonth) async throws(StoreError) -> [SpendRecord] {
        let rows = try await database.rows(
            "list spend in \(month)",
            "SELECT model_id, month, usd, request_count, updated_at FROM spend WHERE month = \(month.description) ORDER BY model_id")
        return try decode {
            try rows.map { row in
                let (model, _, usd, count, updated) = try row.decode((String, String, Double, Int, Date).self)
                return SpendRecord(modelID: model, month: month, usd: usd, requestCount: count, updatedAt: updated)
            }
        }
    }

    private func decode<T>(_ body: () throws -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch {
            throw StoreError.unreadableRow(path: database.location, table: "spend", reason: "\(error)")
        }
    }
}
