import ArgumentParser
import Foundation
import HybridConfig
import HybridCore
import HybridLocalModel
import HybridProviders
import HybridRouter

/// `hybrid ask`: one call to one model, with tokens and latency.
struct AskCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ask",
        abstract: "Send one prompt to one configured model; print the text, tokens, TTFT, total latency and who served it.")

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: "Model id from the config (see `hybrid models`).")
    var model: String = "local-smollm2"

    @Option(name: .long, help: "System instructions.")
    var instructions: String?

    @Option(name: .long, help: "Maximum output tokens.")
    var maxTokens: Int = 256

    @Option(name: .long, help: "Sampling temperature.")
    var temperature: Double?

    @Option(name: .long, help: "Give up after this many milliseconds (connect, first byte and the whole answer).")
    var deadlineMs: Int = 60_000

    @Flag(name: .long, help: "Print only the text, no figures.")
    var quiet = false

    @Option(name: .long, help: "Route the prompt through this feature (its template, priority order and fallback) as the router in an app would, instead of calling --model directly.")
    var feature: String?

    @OptionGroup var targeting: LabelOptions

    @OptionGroup(title: "OpenTelemetry") var otlp: OTLPOptions

    @Argument(help: "The prompt.")
    var prompt: String

    func validate() throws {
        try OptionChecks.atLeast(1, maxTokens, option: "--max-tokens")
        try OptionChecks.within(0...2, temperature, option: "--temperature")
        try OptionChecks.atLeast(1, deadlineMs, option: "--deadline-ms")
        if feature == nil, !targeting.pairs.isEmpty {
            throw ValidationError("--label selects a feature's configuration: pass --feature NAME as well")
        }
    }

    func run() async throws {
        ChildProcessReaper.installSignalHandlers()
        try await otlp.exporting { try await ask() }
    }

    private func ask() async throws {
        try await CLIOutput.run {
            let (document, _, _) = try await global.loadConfig()
            if let feature { return try await route(feature, document: document) }
            guard let config = document.models[model] else {
                throw CLIError("unknown model \"\(model)\" (configured: \(document.models.keys.sorted().joined(separator: ", ")))")
            }
            let languageModel = ModelFactory.harness().model(id: model, config: config)
            if case .unavailable(let reason) = await languageModel.availability() {
                throw CLIError("\(model) is unavailable: \(reason.message)")
            }
            // Start a local server first, so loading weights is not charged to the deadline.
            if let local = languageModel as? LocalLlamaModel { try? await local.prepare() }
            var request = GenerationRequest(
                prompt: prompt, instructions: instructions,
                options: GenerationOptions(temperature: temperature, maxOutputTokens: maxTokens))
            request.deadline = .now + .milliseconds(deadlineMs)
            var response: GenerationResponse?
            do {
                for try await event in languageModel.stream(request) {
                    switch event {
                    case .delta(let text):
                        FileHandle.standardOutput.write(Data(text.utf8))
                    case .completed(let final):
                        response = final
                    case .toolCallDelta:
                        break  // ask offers no tools
                    }
                }
            } catch let error as GenerationError {
                throw CLIError(error.description)
            }
            print()
            guard let response, !quiet else { return }
            let usage = response.usage
            let estimated = usage.isEstimated ? " (estimated)" : ""
            print("---")
            print("served by:   \(response.servedBy)")
            print("tokens:      \(usage.promptTokens) in, \(usage.completionTokens) out\(estimated)")
            print("TTFT:        \(response.timing.timeToFirstToken.map { Self.ms($0) } ?? "n/a")")
            print("total:       \(Self.ms(response.timing.total))")
            if let rate = response.timing.decodeTokensPerSecond {
                print("decode:      \(String(format: "%.1f", rate)) tokens/s")
            }
            print("finish:      \(response.finishReason)")
        }
    }

    /// The prompt through `name`'s routing, as an install with the `--label`s would be served.
    private func route(_ name: String, document: HybridConfigDocument) async throws {
        guard let config = document.features[name] else {
            throw CLIError("unknown feature \"\(name)\" (configured: \(document.features.keys.sorted().joined(separator: ", ")))")
        }
        let router = try Router(
            config: .fixed(document), models: .modelFactory(ModelFactory.harness()), installId: targeting.installId,
            eventLabels: try targeting.labels())
        let input = [config.inputs.first ?? "input": prompt]
        // The `--label`s are the call's labels too, so an input rule's `label.NAME` test sees them as an app's call
        // passing them would (the router's own labels select conditions and go with the event).
        let started = ContinuousClock.now
        let stream = router.stream(
            feature: name, input: input, deadline: .milliseconds(deadlineMs), labels: try targeting.labels())
        var routed: RoutedResponse?
        do {
            for try await event in stream {
                switch event {
                case .delta(let text): FileHandle.standardOutput.write(Data(text.utf8))
                case .reset:
                    // A terminal cannot take the text back: say where the answer starts again.
                    FileHandle.standardOutput.write(Data("\n".utf8))
                    FileHandle.standardError.write(Data("[the model serving this answer failed; the next one starts it again]\n".utf8))
                case .completed(let response): routed = response
                case .attempt: break
                }
            }
        } catch {
            // Typed: the router's streams throw `RouterError` only.
            throw CLIError(error.description)
        }
        let requestTime = ContinuousClock.now - started
        print()
        guard let routed, !quiet else { return }
        print("---")
        print("feature:     \(name), variant \(routed.variant), condition \(routed.condition ?? "none")")
        if let rule = routed.inputRule { print("rule:        \(rule)") }
        print("served by:   \(routed.servedBy)")
        for attempt in routed.attempts { print("attempt:     \(attempt)") }
        // An attempt's time includes starting its model (a local server's first load); the model's own timing does not.
        print("model:       \(Self.ms(routed.response.timing.total)) (the serving model's own timing)")
        print("request:     \(Self.ms(requestTime)) (routing, model starts and fallbacks included)")
    }

    static func ms(_ duration: Duration) -> String {
        String(format: "%.0f ms", duration.milliseconds)
    }
}
