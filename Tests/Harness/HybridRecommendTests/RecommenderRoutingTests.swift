import Foundation
import HybridConfig
import HybridCore
import HybridRecommend
import HybridStore
import Testing

@Suite struct RecommenderRoutingTests {
    private func recommend(_ fallback: [FallbackCondition]) async throws -> Recommendation {
        let store = try await StoredRunFixture.store(cases: 20, arms: RecommenderTests.arms)
        let simulator = try await RouteSimulator.load(from: store, run: "run-1")
        let base = try StoredRunFixture.config(models: RecommenderTests.models, priority: ["local", "premium", "budget"])
        let policy = RecommendationPolicy(features: ["summarize": .init(minAdherenceLower: 0.8, fallbackOn: fallback)])
        return try Recommender(policy: policy).recommend(document: base, simulators: [simulator])
    }

    @Test("the recommended config carries the routing block that was simulated, every error kind spelled out")
    func writesTheSimulatedRoutingBlock() async throws {
        let recommendation = try await recommend([.adherence, .timeout(milliseconds: 1000)])
        let routing = try #require(recommendation.document.features["summarize"]?.routing)
        // The feature has soft constraints but no output schema, so adherence means its constraints.
        #expect(routing.fallbackOnOutput == ["constraints"])
        #expect(routing.attemptTimeoutMs == 1000)
        #expect(routing.whenChecksFail == .returnBest)
        #expect(routing.streaming == .buffered)
        #expect(routing.onError?.count == GenerationError.Kind.allCases.count)
        #expect(routing.onError?["refusal"] == .stop && routing.onError?["server_error"] == .fallback)
        #expect(recommendation.changes.map(\.path).contains("features.summarize.routing"))
        // It is a valid config: the checks it names exist on the feature.
        _ = try ConfigValidator.load(recommendation.document.encodedJSON())
    }

    @Test("a fallback on quality is refused: no router has the references to evaluate it")
    func qualityConditionIsRefused() async throws {
        do {
            _ = try await recommend([.quality(scorer: "token_f1", minimum: 0.5)])
            Issue.record("expected a refusal")
        } catch let error as RecommendError {
            guard case .conditionNotRoutable(let feature, let condition) = error else {
                Issue.record("expected conditionNotRoutable, got \(error)")
                return
            }
            #expect(feature == "summarize" && condition == "quality:token_f1>=0.5")
            #expect(error.description.contains("references an app does not have"))
        }
    }
}
