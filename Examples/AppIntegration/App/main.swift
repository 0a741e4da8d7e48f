// hybrid-example-app: the router used the way an app embeds it.
//
//   swift run hybrid-example-app ["text to summarize"]      (from the package root)
//
// The feature code (`Features/SummaryFeature.swift`) uses only the app products. This target is the app shell: like
// a Mac app that ships llama.cpp, it registers the local model (HybridLocalModel) with the factory. With `make setup`
// done (.hybrid/local-model.env present), the shipped config's (`Features/AppConfig.swift`) first choice for `summarize`, the on-device SmolLM2,
// answers. Without it, the router skips that model with the reason and tries the cloud models whose API keys are
// set; with none, it prints why each model was passed over.
import AppIntegrationFeatures
import Foundation
import HybridLocalModel
import HybridProviders
import HybridTransport

// Ctrl-C must not leave the local llama-server running.
ChildProcessReaper.installSignalHandlers()

// 1. The models: the platform's default transport, cloud keys from the environment, and the local llama.cpp runtime.
let installation = LocalModelInstallation.discover()
if case .failure(let reason) = installation {
    print("Local model not set up: \(reason.message). Cloud models will be tried if their API keys are set.")
}
let transport = URLSessionTransport.shared
let models = ModelFactory(transport: transport).withLocalLlama(installation)

// 2. The feature: config (the shipped AppConfig, last-known-good in a file), router, spend ledger in a file. An app uses
//    Application Support and a UUID stored on first launch as the install id (it picks the rollout arm).
let storage = URL(fileURLWithPath: ".hybrid/example-app", isDirectory: true)
let installId = ProcessInfo.processInfo.environment["HYBRID_INSTALL_ID"] ?? "example-install-0001"
let summary = try await SummaryFeature.start(models: models, transport: transport, storage: storage, installId: installId)

// 3. Prewarm when the screen appears: the local server starts and warms before the user asks.
if let warmed = await summary.prewarm() { print("prewarmed: \(warmed)") }

// 4. A feature call.
let text = CommandLine.arguments.dropFirst().first ?? """
    The city council approved a plan on Tuesday to convert two downtown parking garages into housing. \
    The project will add about 300 apartments, a third of them priced for low-income residents. \
    Construction starts next spring and should take two years.
    """

do {
    let result = try await summary.summarize(text)
    print("Summary: \(result.response.text.trimmingCharacters(in: .whitespacesAndNewlines))")
    print("servedBy: \(result.servedBy)  variant: \(result.variant)  rollout arm: \(result.rolloutArm ?? "none")")
    print("attempts:")
    for attempt in result.attempts { print("  - \(attempt)") }
} catch let error where error.code == .inputTooShort {
    // A graceful decline: the app shows its non-AI fallback instead of an error.
    print("Text too short to summarize (\(error.inputLength ?? 0) characters, needs \(error.minimumLength ?? 0)).")
} catch {
    print("summarize failed: \(error)")
    exit(1)
}

// 5. A typed call: the answer decoded into the app's `Contact`.
do {
    let card = try await summary.contact(in: "Grace Hopper of Remington Rand writes about compilers and COBOL.")
    print("Contact: \(card.content.name), \(card.content.company), topics \(card.content.topics) (served by \(card.routed.servedBy))")
} catch {
    print("contact failed: \(error)")
}
