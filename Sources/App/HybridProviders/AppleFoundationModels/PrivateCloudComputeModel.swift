// Apple's Private Cloud Compute model (FoundationModels, iOS/macOS/visionOS 27 SDK). Behind `canImport` and
// `compiler(>=6.4)` (the toolchain of the 27 SDK; the 26 SDK has no such type) and `@available(... 27.0)`.
// Written from Apple's documentation only: NOT compiled or tested anywhere yet (docs/apple-platforms.md).
// Apple requires a managed entitlement to use PCC (developer.apple.com/private-cloud-compute).
#if canImport(FoundationModels) && compiler(>=6.4)
import FoundationModels
package import HybridCore
import Foundation

/// Apple's server model on Private Cloud Compute (`PrivateCloudComputeLanguageModel`) behind `LanguageModel`,
/// for the `private-cloud` tier.
///
/// - The same session handling as the on-device adapter (`FoundationModelsSessionRunner`): a fresh session per
///   request, options, structured output, estimated usage.
/// - `availability()` reports the usage quota (`quotaUsage.isLimitReached`) as unavailable. Apple's page says to
///   verify availability before use, but the documentation pages available when this was written did not show the
///   shape of a PCC availability property, so device and region eligibility surface as errors at request time
///   (`networkFailure` → unreachable, `serviceUnavailable` → server error, quota → rate limited, not retryable).
/// - The context window is the configured one: PCC's `contextSize` is `async throws`, while `capabilities` is
///   read synchronously by the router before any request.
@available(macOS 27.0, iOS 27.0, visionOS 27.0, *)
package struct PrivateCloudComputeModel: HybridCore.LanguageModel {
    /// The configured id.
    package let id: String
    /// The display name.
    package let displayName: String
    /// Apple's servers, under Private Cloud Compute's privacy guarantees.
    package var tier: ModelTier { .privateCloud }
    /// Streaming and structured output with the configured context window.
    package let capabilities: ModelCapabilities
    private let model: PrivateCloudComputeLanguageModel

    /// Creates the adapter; `contextWindow` comes from the config (see the type's notes).
    package init(id: String = "apple-private-cloud-compute", displayName: String? = nil, contextWindow: Int) {
        self.id = id
        self.displayName = displayName ?? "Apple Private Cloud Compute"
        model = PrivateCloudComputeLanguageModel()
        capabilities = ModelCapabilities(streaming: true, structuredOutput: true, contextWindow: contextWindow)
    }

    /// Unavailable while this user's usage quota is used up; otherwise available (see the type's notes).
    package func availability() async -> ModelAvailability {
        model.quotaUsage.isLimitReached
            ? .unavailable(.other("the Private Cloud Compute usage quota is used up for now"))
            : .available
    }

    /// Prewarms a session (`LanguageModelSession.prewarm()`), best-effort as Apple documents it.
    package func prepare() async throws(GenerationError) {
        LanguageModelSession(model: model).prewarm()
    }

    /// One complete response. Throws only `GenerationError`.
    package func generate(_ request: GenerationRequest) async throws(GenerationError) -> GenerationResponse {
        try await run(request, streaming: false, onDelta: { _ in })
    }

    /// Text deltas as the session produces them, then exactly one `.completed`.
    package func stream(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error> {
        FoundationModelsSessionRunner.stream { (continuation) async throws(GenerationError) -> GenerationResponse in
            try await run(request, streaming: true) { continuation.yield(.delta($0)) }
        }
    }

    private func run(
        _ request: GenerationRequest, streaming: Bool, onDelta: (String) -> Void
    ) async throws(GenerationError) -> GenerationResponse {
        let recorder = FoundationModelsTools.Recorder()
        let session = try FoundationModelsTools.session(model: model, modelID: id, request: request, recorder: recorder)
        let runner = FoundationModelsSessionRunner(modelID: identity, providerModel: "apple-private-cloud-compute")
        return try await runner.run(session, request, recorder: recorder, streaming: streaming, onDelta: onDelta)
    }
}
#endif
