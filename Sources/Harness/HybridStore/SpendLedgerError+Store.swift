extension SpendLedgerError {
    /// A database failure as the ledger's error, with the database's own message (which names its path).
    public init(_ error: StoreError) {
        switch error {
        case .cancelled: self.init(.cancelled, error.description)
        case .invalidValue: self.init(.invalidAmount, error.description)
        default: self.init(.unavailable, error.description)
        }
    }

    /// `body`'s result, or its database failure as a ledger error: the ledgers over SQLite and PostgreSQL speak
    /// ``SpendLedger``'s error, not the store's.
    public static func mapping<T>(_ body: () async throws(StoreError) -> T) async throws(SpendLedgerError) -> T {
        do {
            return try await body()
        } catch {
            throw SpendLedgerError(error)
        }
    }
}
