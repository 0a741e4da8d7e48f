import Foundation
import HybridConfig
import HybridRecommend
import HybridReport
import HybridStore

/// The cost–quality curve of `hybrid report` (Markdown and HTML): computed by the learner of
/// `hybrid recommend --by-input` (HybridReport cannot depend on HybridRecommend, which depends on it), on the cases
/// measured as `--by-input` measures them, under the config the run ran with. A run it cannot draw (one tier,
/// tiers on different cases, no dataset) has no curve; the report says nothing about it.
enum CostQualityAnnotation {
    static func annotate(_ report: inout RunReport, run: String, store: any ResultStore) async {
        guard let record = try? await store.run(id: run),
            let document = try? await GlobalOptions.ownConfig(of: record, store: store)
        else { return }
        for index in report.features.indices {
            let feature = report.features[index].feature
            guard let config = document.features[feature],
                let table = try? await RunOutcomeTable.load(from: store, run: run, feature: feature),
                let features = try? RecommendCommand.measuredFeatures(datasetPath: record.datasetPath, feature: feature, config: config)
            else { continue }
            report.features[index].costQualityCurve = InputRuleLearner().curve(table: table, document: document, features: features)
        }
    }
}
