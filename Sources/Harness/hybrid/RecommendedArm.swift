import Foundation
import HybridConfig
import HybridRecommend
import HybridReport
import HybridStore

/// The ★ of `hybrid report`: the arm `hybrid recommend` would serve first under the standard policy, with its
/// reason, so the report's headline pick and the recommendation never disagree (#66). Judged under the config the
/// run ran with; a run the recommender cannot judge keeps the report's own ranking, and says why.
enum RecommendedArm {
    static func annotate(_ report: inout RunReport, run: String, store: any ResultStore, reducer: RepeatReducer) async {
        let outcome: Result<Recommendation, any Error>
        do {
            outcome = .success(try await recommendation(run: run, store: store, reducer: reducer))
        } catch {
            outcome = .failure(error)
        }
        for index in report.features.indices {
            let feature = report.features[index].feature
            switch outcome {
            case .success(let recommendation):
                guard let decision = recommendation.features.first(where: { $0.feature == feature }) else { continue }
                // What would be served: the chosen route, or the current one the decision keeps.
                let served = decision.chosen ?? decision.current
                if let arm = served.flatMap({ route in route.order.first.map { "\(route.variant)@\($0)" } }) {
                    report.features[index].recommendedArm = arm
                }
                report.features[index].recommendation = line(decision)
            case .failure(let error):
                report.features[index].recommendation = "no recommendation (\(error)); the ★ is the report's own ranking"
            }
        }
    }

    private static func recommendation(run: String, store: any ResultStore, reducer: RepeatReducer) async throws -> Recommendation {
        guard let record = try await store.run(id: run), let hash = record.configHash, let body = try await store.config(hash: hash) else {
            throw CLIError("the run kept no config to judge it under")
        }
        let document = try ConfigValidator.load(Data(body.utf8), checkUnknownKeys: false).document
        let simulator = try await RouteSimulator.load(from: store, run: run)
        return try Recommender(policy: .standard, reducer: reducer).recommend(document: document, simulators: [simulator])
    }

    /// The decision in one line, as `hybrid recommend` words it.
    static func line(_ decision: FeatureRecommendation) -> String {
        switch decision.decision {
        case .change:
            return "CHANGE to \(decision.chosen?.label ?? "?"): shown better than the current route, or as good and cheaper or faster (run `hybrid recommend` for the figures)"
        case .keepNoEvidence:
            return "KEEP \(decision.current?.label ?? "the current order"): no candidate shown better, or as good and cheaper or faster"
        case .keepNothingQualifies:
            return "KEEP the current order: no candidate meets every floor of the standard policy"
        }
    }
}
