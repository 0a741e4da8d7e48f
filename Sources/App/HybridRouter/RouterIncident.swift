/// Something an operator must fix, raised by the router as it happens (besides being listed in the attempts).
public enum RouterIncident: Sendable, Equatable, CustomStringConvertible {
    /// A provider rejected the API key; the router moved on, but every request pays for the failed call
    /// until the key is fixed.
    case authenticationFailed(model: String, detail: String)
    /// Spend could not be read or recorded; budget caps may be wrong. `subject` names the model or feature.
    case ledgerFailed(subject: String, detail: String)

    public var description: String {
        switch self {
        case .authenticationFailed(let model, let detail):
            "HybridRouter: authentication failed for \(model) (\(detail)); check its API key environment variable. Falling back to the next model."
        case .ledgerFailed(let subject, let detail):
            "HybridRouter: spend ledger failed for \(subject) (\(detail)); metered models are skipped while spend cannot be read, and spend not recorded is not counted toward caps."
        }
    }
}
