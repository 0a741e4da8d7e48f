// Apple Foundation Models adapter. FoundationModels exists only on Apple platforms (macOS 26, iOS 26 and
// later), so everything here is inside `#if canImport(FoundationModels)`: Linux builds never see it. It is
// written against Apple's documented API and is NOT compiled or tested on the Linux CI (docs/apple-platforms.md
// lists what is verified where).
#if canImport(FoundationModels)
package import FoundationModels
package import HybridCore
import Foundation

/// Apple's on-device system language model (`SystemLanguageModel`) behind `LanguageModel`.
///
/// Behaviour callers can rely on:
/// - `availability()` maps `SystemLanguageModel.availability`: device not eligible, Apple Intelligence off and
///   model not ready become the matching `UnavailabilityReason` cases.
/// - The context window is the model's own `contextSize` (Apple documents it as back-deployed to 26.0 from the
///   26.4 SDK). Only when built with an older SDK does the adapter fall back to `fallbackContextWindow`.
/// - `prepare()` calls `LanguageModelSession.prewarm()`, which loads the model's assets into memory ahead of a
///   request. Apple documents prewarming as best-effort and guaranteed only for the prewarmed session; the assets
///   stay loaded for the sessions that follow, which is what a cold first request pays for.
/// - Each request uses a fresh `LanguageModelSession` with the request's instructions (see
///   `FoundationModelsSessionRunner`). Session errors map onto `GenerationError` kinds (`FoundationModelsErrors`).
@available(macOS 26.0, iOS 26.0, visionOS 26.0, *)
package struct FoundationModelsModel: HybridCore.LanguageModel {
    /// The configured id.
    package let id: String
    /// The display name.
    package let displayName: String
    /// Always on the device.
    package var tier: ModelTier { .onDevice }
    /// Streaming and structured output; the context window is the model's own `contextSize`.
    package let capabilities: ModelCapabilities
    private let model: SystemLanguageModel

    /// Creates the adapter over `model` (the default system model unless a use-case model is given).
    /// `fallbackContextWindow` is used only when the SDK this is built with cannot report `contextSize`.
    package init(
        id: String = "apple-foundation-model",
        displayName: String? = nil,
        model: SystemLanguageModel = .default,
        fallbackContextWindow: Int = 4096
    ) {
        self.id = id
        self.displayName = displayName ?? "Apple Foundation Model"
        self.model = model
        capabilities = ModelCapabilities(
            streaming: true, structuredOutput: true, contextWindow: Self.contextSize(of: model, fallback: fallbackContextWindow))
    }

    /// The system model a config's `model` names: `content-tagging` is Apple's content-tagging use case; any other
    /// name (`system`, by convention) the general-purpose default. A config changes it without an app release.
    static func systemModel(named name: String) -> SystemLanguageModel {
        name == "content-tagging" ? SystemLanguageModel(useCase: .contentTagging) : .default
    }

    /// The model's own context size where the SDK exposes it (26.4 SDK, Swift 6.3 toolchain, and later).
    static func contextSize(of model: SystemLanguageModel, fallback: Int) -> Int {
        #if compiler(>=6.3)
        return model.contextSize
        #else
        return fallback
        #endif
    }

    /// The system model's availability in this package's terms.
    package func availability() async -> ModelAvailability {
        // `if case` rather than a switch: whether Apple's enum is frozen decides between an error and a warning.
        let availability = model.availability
        if case .available = availability { return .available }
        if case .unavailable(let reason) = availability { return .unavailable(Self.map(reason)) }
        return .unavailable(.other("the system language model is unavailable (\(availability))"))
    }

    /// Loads the model's assets ahead of the first request (`LanguageModelSession.prewarm()`); a no-op while the
    /// model is unavailable, so an app can call it unconditionally at launch.
    package func prepare() async throws(GenerationError) {
        guard case .available = model.availability else { return }
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
        if case .unavailable(let reason) = model.availability {
            throw .unavailable(model: id, reason: Self.map(reason))
        }
        let recorder = FoundationModelsTools.Recorder()
        let session = try FoundationModelsTools.session(model: model, modelID: id, request: request, recorder: recorder)
        let runner = FoundationModelsSessionRunner(modelID: identity, providerModel: "apple-system-language-model")
        return try await runner.run(session, request, recorder: recorder, streaming: streaming, onDelta: onDelta)
    }

    static func map(_ reason: SystemLanguageModel.Availability.UnavailableReason) -> UnavailabilityReason {
        switch reason {
        case .deviceNotEligible: .deviceNotEligible
        case .appleIntelligenceNotEnabled: .appleIntelligenceNotEnabled
        case .modelNotReady: .modelNotReady
        @unknown default: .other("the system language model is unavailable (\(reason))")
        }
    }
}
#endif
