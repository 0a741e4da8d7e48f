public import HybridCore
public import HybridLocalModel
public import Testing

/// The tests that run the real local model (llama-server serving SmolLM2, installed by `make setup`, which
/// `make test` runs first) ask here for it. A missing installation FAILS the test with the fix, never skips it.
public enum LocalModelRequirement {
    /// What a test that found no local model records.
    public static let missing: Comment =
        "the local model is not installed: run `make setup` (or set HYBRID_LLAMA_SERVER and HYBRID_SMOLLM2_GGUF)"

    /// The installation, or nil after recording an issue that names the fix (at the caller's line).
    public static func installed(
        _ discovered: Result<LocalModelInstallation, UnavailabilityReason> = LocalModelInstallation.discover(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> LocalModelInstallation? {
        guard case .success(let found) = discovered else {
            Issue.record(missing, sourceLocation: sourceLocation)
            return nil
        }
        return found
    }
}
