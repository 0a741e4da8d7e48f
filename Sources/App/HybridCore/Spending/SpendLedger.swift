/// Monthly spend counters per model, persisted so budget caps hold across restarts.
public protocol SpendLedger: Sendable {
    /// Adds `usd` to the model's counter for `month` and returns the new total.
    /// Throws ``SpendLedgerError/Code/invalidAmount`` for a negative or non-finite amount.
    @discardableResult
    func addSpend(model: String, month: BillingMonth, usd: Double) async throws(SpendLedgerError) -> Double
    /// The model's spend in `month`; 0 when nothing was recorded.
    func spend(model: String, month: BillingMonth) async throws(SpendLedgerError) -> Double
    /// Every model's counter for `month`, by model id.
    func spendRecords(month: BillingMonth) async throws(SpendLedgerError) -> [SpendRecord]
}

extension SpendLedger {
    /// Every ledger refuses the same amounts: throws ``SpendLedgerError/Code/invalidAmount`` unless `usd` is finite
    /// and non-negative.
    package static func checkAmount(_ usd: Double, model: String, month: BillingMonth) throws(SpendLedgerError) {
        guard usd.isFinite, usd >= 0 else {
            throw SpendLedgerError(.invalidAmount, "cannot store spend for \(model) in \(month): \(usd) USD is not a finite, non-negative amount")
        }
    }
}
