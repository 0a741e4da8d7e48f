// `SpendLedger`, `SpendLedgerError`, `SpendRecord` and `BillingMonth` live in HybridCore so the router (and apps)
// can use them without SQLite; re-exported so code that imports only HybridStore keeps compiling.
@_exported public import HybridCore
