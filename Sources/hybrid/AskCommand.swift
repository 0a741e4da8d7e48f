import ArgumentParser
import Foundation
import HybridCore
import HybridLocalModel
import HybridProviders

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

    @Argument(help: "The prompt.")
    var prompt: String

    func validate() throws {
        try OptionChecks.atLeast(1, maxTokens, option: "--max-tokens")
        try OptionChecks.within(0...2, temperature, option: "--temperature")
        try OptionChecks.atLeast(1, deadlineMs, option: "--deadline-ms")
    }

    func run() async throws {
        ChildProcessReaper.installSignalHandlers()
        try await CLIOutput.run {
            let (document, _, _) = try await global.loadConfig()
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

    static func ms(_ duration: Duration) -> String {
        String(format: "%.0f ms", duration.milliseconds)
    }
}
