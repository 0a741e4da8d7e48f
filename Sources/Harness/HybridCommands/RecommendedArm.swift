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
                report.features[index].recommendation = decision.headline
            case .failure(let error):
                report.features[index].recommendation = "no recommendation (\(error)); the ★ is the report's own ranking"
            }
        }
    }

    private static func recommendation(run: String, store: any ResultStore, reducer: RepeatReducer) async throws -> Recommendation {
        guard let record = try await store.run(id: run), let document = try await GlobalOptions.ownConfig(of: record, store: store) else {
            throw CLIError("the run kept no config to judge it under")
        }
        let simulator = try await RouteSimulator.load(from: store, run: run)
        return try Recommender(policy: .standard, reducer: reducer).recommend(document: document, simulators: [simulator])
    }
}
