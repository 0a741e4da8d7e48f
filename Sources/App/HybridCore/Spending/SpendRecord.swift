public import Foundation

/// Money spent on one model in one billing month, as the router accumulated it. A row of `spend`.
public struct SpendRecord: Sendable, Hashable {
    /// Configured model id the money was spent on.
    public var modelID: String
    /// UTC billing month of the spend.
    public var month: BillingMonth
    /// Total estimated spend in US dollars.
    public var usd: Double
    /// How many `addSpend` calls contributed.
    public var requestCount: Int
    /// When the counter last changed (millisecond precision).
    public var updatedAt: Date

    /// Creates a spend row; `usd` is US dollars.
    public init(modelID: String, month: BillingMonth, usd: Double, requestCount: Int, updatedAt: Date) {
        self.modelID = modelID
        self.month = month
        self.usd = usd
        self.requestCount = requestCount
        self.updatedAt = updatedAt
    }
}
