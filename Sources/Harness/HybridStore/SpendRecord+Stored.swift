import Foundation
public import HybridCore
import GRDB

extension SpendRecord: StoredRecord {
    static let databaseTableName = "spend"

    enum Columns {
        static let modelID = Column("model_id")
        static let month = Column("month")
        static let usd = Column("usd")
        static let requestCount = Column("request_count")
        static let updatedAt = Column("updated_at")
    }

    init(row: Row) throws {
        let monthText: String = try row.decode(forColumn: Columns.month)
        guard let month = BillingMonth(monthText) else {
            throw RecordDecodingError(table: Self.databaseTableName, reason: "month '\(monthText)' is not YYYY-MM")
        }
        self.init(
            modelID: try row.decode(forColumn: Columns.modelID),
            month: month,
            usd: try row.decode(forColumn: Columns.usd),
            requestCount: try row.decode(forColumn: Columns.requestCount),
            updatedAt: try row.decode(forColumn: Columns.updatedAt)
        )
    }

    func encode(to container: inout PersistenceContainer) throws {
        container[Columns.modelID] = modelID
        container[Columns.month] = month.description
        container[Columns.usd] = usd
        container[Columns.requestCount] = requestCount
        container[Columns.updatedAt] = updatedAt
    }
}
