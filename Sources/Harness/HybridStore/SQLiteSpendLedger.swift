import Foundation
import GRDB

/// The SQLite `SpendLedger`, over the `spend` table of a `HybridDatabase`.
public final class SQLiteSpendLedger: SpendLedger {
    /// The database holding the `spend` table.
    public let database: HybridDatabase

    /// A ledger over an open database (usually the one the result store uses).
    public init(database: HybridDatabase) {
        self.database = database
    }

    @discardableResult
    public func addSpend(model: String, month: BillingMonth, usd: Double) async throws(SpendLedgerError) -> Double {
        try Self.checkAmount(usd, model: model, month: month)
        return try await SpendLedgerError.mapping { () async throws(StoreError) in try await add(model: model, month: month, usd: usd) }
    }

    public func spend(model: String, month: BillingMonth) async throws(SpendLedgerError) -> Double {
        try await SpendLedgerError.mapping { () async throws(StoreError) in try await read(model: model, month: month) }
    }

    public func spendRecords(month: BillingMonth) async throws(SpendLedgerError) -> [SpendRecord] {
        try await SpendLedgerError.mapping { () async throws(StoreError) in try await records(month: month) }
    }

    private func add(model: String, month: BillingMonth, usd: Double) async throws(StoreError) -> Double {
        let now = Date()
        return try await database.write("add spend for \(model) in \(month)") { db in
            // One statement, so concurrent adders (other processes included) never lose an increment.
            try Double.fetchOne(
                db,
                sql: """
                    INSERT INTO spend (model_id, month, usd, request_count, updated_at) VALUES (?, ?, ?, 1, ?)
                    ON CONFLICT (model_id, month) DO UPDATE SET
                        usd = usd + excluded.usd,
                        request_count = request_count + 1,
                        updated_at = excluded.updated_at
                    RETURNING usd
                    """,
                arguments: [model, month.description, usd, now]
            ) ?? usd
        }
    }

    private func read(model: String, month: BillingMonth) async throws(StoreError) -> Double {
        try await database.read("read spend for \(model) in \(month)") { db in
            try Double.fetchOne(
                db,
                sql: "SELECT usd FROM spend WHERE model_id = ? AND month = ?",
                arguments: [model, month.description]
            ) ?? 0
        }
    }

    private func records(month: BillingMonth) async throws(StoreError) -> [SpendRecord] {
        try await database.read("list spend in \(month)") { db in
            try Stored<SpendRecord>.fetchAll(
                db,
                sql: "SELECT * FROM spend WHERE month = ? ORDER BY model_id",
                arguments: [month.description]
            ).map(\.value)
        }
    }
}
