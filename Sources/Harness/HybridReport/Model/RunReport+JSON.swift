public import Foundation
import HybridCore

extension RunReport {
    /// Runs with more results than this omit per-case data from `report.json` by default: the file would grow by
    /// about 40 bytes per result, and baselines of such runs fall back to unpaired comparisons.
    public static let defaultCaseDataLimit = 20_000

    /// The report as pretty-printed JSON with sorted keys (byte-stable for the same report). With
    /// `includeCases: false`, the per-case vectors (``FeatureReport/caseKeys``, ``ArmSummary/cases``) are left out.
    public func jsonData(includeCases: Bool = true) throws(ReportError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(includeCases ? self : withoutCaseData())
        } catch {
            throw .unwritableFile(path: "report.json", reason: "a figure is not representable in JSON (\(error))")
        }
    }

    /// This report without per-case vectors.
    public func withoutCaseData() -> RunReport {
        var copy = self
        for f in copy.features.indices {
            copy.features[f].caseKeys = nil
            for a in copy.features[f].arms.indices {
                copy.features[f].arms[a].cases = nil
            }
        }
        return copy
    }

    /// Decodes a report written by ``jsonData(includeCases:)``; `path` only names the file in errors.
    public static func decode(_ data: Data, path: String) throws(ReportError) -> RunReport {
        struct Version: Decodable { var schemaVersion: Int }
        do {
            let tree = try JSONValue(parsing: data)
            let version = try JSONValueDecoder().decode(Version.self, from: tree)
            guard version.schemaVersion <= currentSchemaVersion else {
                throw ReportError.unsupportedSchemaVersion(path: path, found: version.schemaVersion, supported: currentSchemaVersion)
            }
            return try JSONValueDecoder().decode(RunReport.self, from: tree)
        } catch let error as ReportError {
            throw error
        } catch {
            throw .unreadableFile(path: path, reason: "not a hybrid report.json (\(error))")
        }
    }

    /// Reads a report (a committed baseline) from `path`.
    public static func load(path: String) throws(ReportError) -> RunReport {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadableFile(path: path, reason: error.localizedDescription)
        }
        return try decode(data, path: path)
    }
}
