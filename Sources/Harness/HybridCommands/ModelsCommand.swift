import ArgumentParser
import HybridConfig
import HybridCore
import HybridLocalModel
import HybridProviders

/// `hybrid models`: every configured model and whether it can serve now.
///
/// A local server counts as available only once it has answered: by default each llama.cpp model is started and
/// asked for one token (the server stays up for this process only); `--no-start` lists it as "installed, not started".
struct ModelsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models", abstract: "List configured models with tier, price and availability (and why not).",
        discussion: """
            Local llama.cpp models are started and asked for one token, so "available" means "answered"; a server \
            that dies says how (the signal, what it means, the remedy and its log's last lines) below the table. \
            Cloud models are available when their key is set; they are not called.
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Do not start local servers: list them as \"installed, not started\" instead of proving they answer.")
    var noStart = false

    func run() async throws {
        try await CLIOutput.run {
            let (document, _, source) = try await global.loadConfig()
            let factory = ModelFactory.harness()
            print("config: \(source), version \(document.version)")
            var rows: [[String]] = [["ID", "KIND", "TIER", "$/M IN", "$/M OUT", "CONTEXT", "AVAILABILITY"]]
            var details: [String] = []
            for id in document.models.keys.sorted() {
                let config = document.models[id]!
                let status = await Self.status(of: factory.model(id: id, config: config), start: !noStart)
                let lines = status.split(separator: "\n", omittingEmptySubsequences: false)
                if lines.count > 1 { details.append("\(id): " + status) }
                rows.append([
                    id, config.kind.rawValue, config.tier.rawValue, config.pricing.map { Self.price($0.inputPerMillion) } ?? "?",
                    config.pricing.map { Self.price($0.outputPerMillion) } ?? "?", String(config.contextWindow), String(lines[0]),
                ])
            }
            print(TextTable.render(rows))
            for detail in details { print("\n" + detail) }
        }
    }

    /// One model's availability; a local server is started and must answer a one-token request to be "available".
    static func status(of model: any LanguageModel, start: Bool) async -> String {
        let availability = await model.availability()
        guard let local = model as? LocalLlamaModel, availability.isAvailable else { return availability.description }
        guard start else {
            return await local.isRunning ? "available (running)" : "installed, not started (it starts on the first request)"
        }
        let clock = ContinuousClock()
        let started = clock.now
        do {
            try await local.prepare()
        } catch {
            return "unavailable: " + (error.reason?.message ?? error.description)
        }
        let seconds = (clock.now - started).seconds
        return "available (started and answered in \(String(format: "%.1f", seconds)) s)"
    }

    static func price(_ value: Double) -> String {
        value == 0 ? "0" : String(format: "%.3f", value)
    }
}

/// Left-aligned columns separated by two spaces.
enum TextTable {
    static func render(_ rows: [[String]]) -> String {
        guard let width = rows.map(\.count).max() else { return "" }
        var widths = Array(repeating: 0, count: width)
        for row in rows {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) }
        }
        return rows.map { row in
            row.enumerated().map { i, cell in
                i == row.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
