import ArgumentParser
import HybridConfig
import HybridCore
import HybridProviders

/// `hybrid models`: every configured model and whether it can serve now.
struct ModelsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models", abstract: "List configured models with tier, price and availability (and why not).")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await CLIOutput.run {
            let (document, _, source) = try await global.loadConfig()
            let factory = ModelFactory.harness()
            print("config: \(source), version \(document.version)")
            var rows: [[String]] = [["ID", "KIND", "TIER", "$/M IN", "$/M OUT", "CONTEXT", "AVAILABILITY"]]
            for id in document.models.keys.sorted() {
                let config = document.models[id]!
                let availability = await factory.model(id: id, config: config).availability()
                rows.append([
                    id, config.kind.rawValue, config.tier.rawValue, Self.price(config.pricing.inputPerMillion),
                    Self.price(config.pricing.outputPerMillion), String(config.contextWindow), availability.description,
                ])
            }
            print(TextTable.render(rows))
        }
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
