import HybridCore
import HybridRunner
import HybridStore

/// The dataset cases of a run (input variables and references), read from the dataset file the run names when
/// that file still has the content the run hashed. The store keeps outputs and rendered prompts, not references.
struct CaseReferences: Sendable {
    /// Cases by id; empty when the dataset could not be used.
    var cases: [String: EvalCase]
    /// Why references are missing (file gone, content changed); nil when they were read.
    var unavailableReason: String?

    static let none = CaseReferences(cases: [:], unavailableReason: nil)

    /// Loads `run.datasetPath` (relative paths against the current directory, as `hybrid eval` read it).
    static func load(for run: RunRecord) -> CaseReferences {
        let dataset: Dataset
        do {
            dataset = try Dataset.load(path: run.datasetPath, skipInvalid: true)
        } catch {
            return CaseReferences(
                cases: [:], unavailableReason: "references not shown: cannot read dataset \(run.datasetPath) (\(error))")
        }
        guard dataset.contentHash == run.datasetHash else {
            return CaseReferences(
                cases: [:],
                unavailableReason: "references not shown: dataset \(run.datasetPath) changed since the run (content hash differs)")
        }
        return CaseReferences(cases: Dictionary(dataset.cases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }))
    }
}

extension Reference {
    /// The reference as one line of text: expected text, expected fields as JSON, acceptable labels, a regex.
    var summary: String {
        var parts: [String] = []
        if let expectedText { parts.append(expectedText) }
        if let expectedFields { parts.append(JSONValue.object(expectedFields).canonicalJSON) }
        if !labels.isEmpty { parts.append("one of: " + labels.joined(separator: ", ")) }
        if let regex { parts.append("matches /\(regex)/") }
        return parts.joined(separator: "\n")
    }
}
