import ArgumentParser
import Foundation
import HybridConfig
import HybridReport
import HybridStore

/// The report of a field run for `hybrid report` and `hybrid recommend`: the configured split comes from --config.
enum FieldRunReport {
    static func build(
        run: String, store: SQLiteResultStore, fieldStore: SQLiteFieldEventStore, config: String?, db: String,
        control: String?, options: ReportOptions
    ) async throws -> RunReport {
        guard let record = try await store.run(id: run), let feature = record.features.first else {
            throw CLIError("field run \(run) has no run record")
        }
        var percentages: [String: Double] = [:]
        if let config {
            let document = try await GlobalOptions.parse(["--config", config, "--db", db]).loadConfig().document
            if document.version != record.configVersion {
                CLIOutput.error(
                    "warning: --config is version \(document.version), the field run ran under v\(record.configVersion ?? -1); using its split")
            }
            percentages = split(of: feature, in: document)
        }
        return try await FieldReportBuilder(percentages: percentages, control: control, options: options)
            .build(store: fieldStore, run: record, runID: run)
    }

    /// Arm → percentage of the feature's rollout; a feature without a rollout is 100 % `default`.
    static func split(of feature: String, in document: HybridConfigDocument) -> [String: Double] {
        guard let rollout = document.rollouts[feature] else { return ["default": 100] }
        return Dictionary(rollout.arms.map { ($0.name, $0.percentage) }, uniquingKeysWith: +)
    }
}
