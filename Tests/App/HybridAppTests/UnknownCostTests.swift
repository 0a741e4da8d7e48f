import Foundation
import HybridAI
import HybridTestSupport
import Testing

/// A cost is never silently $0 (#66): a hosted model declared without prices gets its published list price or an
/// unknown cost, an unknown cost stays unknown through the routed response and the event, and a budget that could
/// never count a model's calls is refused when the config is validated.
@Suite("Cost: list prices, unknown prices, budgets over them")
struct UnknownCostTests {
    static func feature(_ priority: [String], budget: Double? = nil) -> FeatureConfig {
        var feature = FeatureConfig(
            variants: ["v": PromptVariant(template: "{{input}}")], defaultVariant: "v", priority: priority, privacy: .open)
        feature.monthlyBudgetUSD = budget
        return feature
    }

    @Test("a declared OpenAI, Anthropic or Gemini model the table lists gets its list price, a dated snapshot its family's")
    func declaredModelsGetListPrices() throws {
        let mini = ModelChoice.openAI(model: "gpt-4o-mini-2024-07-18", apiKey: .key("k")).config.pricing
        #expect(mini?.inputPerMillion == 0.15 && mini?.outputPerMillion == 0.60, "gpt-4o-mini, not gpt-4o: the longest listed prefix")
        #expect(ModelChoice.anthropic(model: "claude-3-5-haiku-latest", apiKey: .key("k")).config.pricing?.outputPerMillion == 4.00)
        #expect(ModelChoice.gemini(apiKey: .key("k")).config.pricing?.inputPerMillion == 0.10)
        #expect(ModelChoice.openAI(model: "gpt-4o", apiKey: .key("k"), pricing: ModelPricing(inputPerMillion: 9, outputPerMillion: 9))
            .config.pricing?.inputPerMillion == 9, "the app's own prices win")
        #expect(ModelChoice.openAI(model: "my-finetune", apiKey: .key("k")).config.pricing == nil, "not listed: unknown, not free")
        #expect(ModelChoice.llamaServer().config.pricing == .free, "a local model costs nothing")
    }

    @Test("an unpriced hosted model's answer has an unknown total cost and an attempt without costUSD in its event")
    func unknownCostStaysUnknown() async throws {
        let cloud = ScriptedLanguageModel(id: "cloud", tier: .thirdParty, script: [.reply("hi", usage: TokenUsage(promptTokens: 40, completionTokens: 10))])
        let config = ModelConfig(
            kind: .openAICompatible, baseURL: "http://127.0.0.1:9/v1", model: "proxy-model", tier: .thirdParty, apiKeyEnv: "UNUSED_KEY",
            pricing: nil, contextWindow: 4096, capabilities: .init(structuredOutput: false, streaming: true))
        let document = HybridConfigDocument(version: 1, models: ["cloud": config], features: ["ask": Self.feature(["cloud"])])
        let sink = InMemoryEventSink()
        let router = try Router(config: .fixed(document), models: .models(["cloud": cloud]), installId: "i", eventSink: sink)

        let routed = try await router.generate(feature: "ask", input: ["input": "hello"])

        #expect(routed.totalUsage.promptTokens == 40)
        #expect(routed.totalCostUSD == nil, "unknown, not $0: \(String(describing: routed.totalCostUSD))")
        let event = try #require(sink.events.first)
        #expect(event.attempts.first?.inputTokens == 40 && event.attempts.first?.costUSD == nil)
    }

    @Test("a monthly budget over a model of unknown price is refused, naming the model; an unpriced hosted model is warned about")
    func budgetOverUnknownPriceIsRefused() throws {
        let unpriced = ModelConfig(
            kind: .openAICompatible, baseURL: "https://proxy.example/v1", model: "m", tier: .thirdParty, apiKeyEnv: "PROXY_KEY",
            pricing: nil, contextWindow: 4096, capabilities: .init(structuredOutput: false, streaming: true))
        let budgeted = HybridConfigDocument(version: 1, models: ["proxy": unpriced], features: ["ask": Self.feature(["proxy"], budget: 5)])
        do {
            _ = try ConfigValidator.validate(budgeted)
            Issue.record("a budget over an unpriced model validated")
        } catch {
            #expect(error.description.contains("features.ask.monthlyBudgetUSD"), "\(error)")
            #expect(error.description.contains("\"proxy\"") && error.description.contains("price is unknown"), "\(error)")
        }
        var hedged = Self.feature(["local", "proxy"])
        hedged.routing = RoutingConfig(hedge: HedgeConfig(afterMs: 500, maxExtraCostPerRequestUSD: 0.001))
        let local = ModelConfig(
            kind: .openAICompatible, baseURL: "http://127.0.0.1:8080/v1", model: "local", tier: .onDevice, pricing: .free,
            contextWindow: 4096, capabilities: .init(structuredOutput: false, streaming: true))
        do {
            _ = try ConfigValidator.validate(HybridConfigDocument(version: 1, models: ["local": local, "proxy": unpriced], features: ["ask": hedged]))
            Issue.record("a hedge cost cap over an unpriced raced model validated")
        } catch {
            #expect(error.description.contains("features.ask.routing.hedge.maxExtraCostPerRequestUSD") && error.description.contains("\"proxy\""), "\(error)")
        }
        let plain = HybridConfigDocument(version: 1, models: ["proxy": unpriced], features: ["ask": Self.feature(["proxy"])])
        let validated = try ConfigValidator.validate(plain)
        #expect(validated.warnings.contains { $0.path == "models.proxy.pricing" && $0.message.contains("unknown") }, "\(validated.warnings)")
    }
}
