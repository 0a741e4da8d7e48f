/// Whether a model can serve a request right now, and if not, why and what fixes it.
public enum ModelAvailability: Sendable, Equatable, CustomStringConvertible {
    /// The model can take a request.
    case available
    /// The model cannot take a request; the reason says why.
    case unavailable(UnavailabilityReason)

    /// True when the model can take a request.
    public var isAvailable: Bool {
        if case .available = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .available: "available"
        case .unavailable(let reason): "unavailable: \(reason.message)"
        }
    }
}

/// Why a model is unavailable. Apple Foundation Models' own reasons map onto the last three cases.
public enum UnavailabilityReason: Error, Sendable, Hashable {
    /// The runtime or weights are not on this machine; `fix` is the command that installs them.
    case notInstalled(what: String, fix: String)
    /// Installed but not started, or it exited.
    case notRunning(String)
    /// The environment variable that should hold the API key is unset or empty.
    case missingAPIKey(variable: String)
    /// The endpoint did not answer (DNS, refused connection, TLS failure).
    case unreachable(String)
    /// Apple Foundation Models: this device cannot run the system model.
    case deviceNotEligible
    /// Apple Foundation Models: the user has not turned Apple Intelligence on.
    case appleIntelligenceNotEnabled
    /// Apple Foundation Models (or a local server still loading weights): not ready yet; try again later.
    case modelNotReady
    /// Anything else, said in words a user can act on.
    case other(String)

    /// A sentence a user can act on.
    public var message: String {
        switch self {
        case .notInstalled(let what, let fix): "\(what) is not installed; run `\(fix)`"
        case .notRunning(let detail): "not running: \(detail)"
        case .missingAPIKey(let variable): "\(variable) not set"
        case .unreachable(let detail): "unreachable: \(detail)"
        case .deviceNotEligible: "this device is not eligible for Apple Intelligence"
        case .appleIntelligenceNotEnabled: "Apple Intelligence is not enabled in Settings"
        case .modelNotReady: "the model is not ready yet (downloading or loading); try again later"
        case .other(let detail): detail
        }
    }
}
