import Foundation
import HybridConfig
import HybridRecommend
import HybridRunner
import HybridStore

extension RouteSimulator {
    /// Judges a hedge's per-call cap on the router's own estimate for each case of `record` (its dataset's inputs
    /// rendered under `document`), as `hybrid simulate --check-router` and the router do; when the dataset is gone
    /// or changed, the stored bills stand in. Returns the line that says which.
    mutating func estimateCallCosts(
        for record: RunRecord, document: HybridConfigDocument, labels: [String: String] = [:], installId: String = "router-check"
    ) async -> String {
        guard let inputs = SimulateCommand.caseInputs(of: record) else {
            return "per-call cost cap: judged on each result's stored bill (the run's dataset \(record.datasetPath) is not at hand as it was run)"
        }
        let estimated = await estimateCallCosts(document: document, inputs: inputs, labels: labels, installId: installId)
        return "per-call cost cap: judged on the router's estimate (prompt and reserved output at the config's prices) for \(estimated) of \(table.cases.count) requests"
    }
}
