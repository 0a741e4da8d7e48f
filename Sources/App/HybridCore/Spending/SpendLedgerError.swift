/// Why a ``SpendLedger`` could not record or read spend. The router treats a ledger it cannot read as "budget
/// unknown" for the models that have a budget, so an app keeps answering while its ledger file is broken.
///
/// A struct over a code, not an enum, so a new kind of failure breaks no caller's `switch` (as ``GenerationError``).
public struct SpendLedgerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. New codes may be added; compare with `==` and keep a `default` in a `switch`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        enum Kind: String, Sendable {
            case invalidAmount, unavailable, cancelled
        }

        let kind: Kind

        /// The amount is negative or not finite; nothing was recorded.
        public static let invalidAmount = Code(kind: .invalidAmount)
        /// The ledger's file or database could not be read or written; its previous contents are intact.
        public static let unavailable = Code(kind: .unavailable)
        /// The task was cancelled before the operation finished; nothing was recorded by it.
        public static let cancelled = Code(kind: .cancelled)

        /// The code's name as written in Swift (`unavailable`).
        public var description: String { kind.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// What failed, naming the ledger's file or database and the operation (the ledger holds model ids and sums
    /// only, so there is no secret to leak).
    public let message: String

    /// An error of `code` saying `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message, as a user should read it.
    public var description: String { message }
}
