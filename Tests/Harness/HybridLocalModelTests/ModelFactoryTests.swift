import HybridConfig
import HybridConfigTools
import HybridCore
import HybridCurl
import HybridLocalModel
@testable import HybridProviders
import HybridTransport
import Testing

@Suite struct ModelFactoryTests {
    let document = try! HybridConfigDocument.bundledDefaults().document

    @Test func everyBundledKindGetsItsAdapterAndKeysComeOnlyFromTheEnvironment() async {
        let factory = ModelFactory(transport: CurlTransport.shared, environment: { _ in nil }).withLocalLlama()
        #expect(factory.model(id: "openai-gpt-4o-mini", config: document.models["openai-gpt-4o-mini"]!) is OpenAICompatibleModel)
        #expect(factory.model(id: "anthropic-claude-haiku", config: document.models["anthropic-claude-haiku"]!) is AnthropicModel)
        #expect(factory.model(id: "gemini-flash", config: document.models["gemini-flash"]!) is GeminiModel)
        #expect(factory.model(id: "ollama-llama3.2", config: document.models["ollama-llama3.2"]!) is OllamaModel)
        #expect(factory.model(id: "local-smollm2", config: document.models["local-smollm2"]!) is LocalLlamaModel)
        let anthropic = factory.model(id: "anthropic-claude-haiku", config: document.models["anthropic-claude-haiku"]!)
        #expect(await anthropic.availability().description == "unavailable: ANTHROPIC_API_KEY not set")
        let gemini = factory.model(id: "gemini-flash", config: document.models["gemini-flash"]!)
        #expect(await gemini.availability().description == "unavailable: GEMINI_API_KEY not set")
    }

    @Test func llamaCppIsUnavailableWithTheFixUntilTheLocalRuntimeIsRegistered() async {
        let config = document.models["local-smollm2"]!
        let unregistered = ModelFactory(transport: CurlTransport.shared, environment: { _ in nil }).model(id: "local", config: config)
        #expect(unregistered is UnsupportedModel)
        #expect(await unregistered.availability().description.contains("ModelFactory.withLocalLlama()"))
        let registered = ModelFactory(transport: CurlTransport.shared).registering(.llamaCpp) { id, config, _ in
            UnsupportedModel(id: id, displayName: id, tier: config.tier, capabilities: config.modelCapabilities,
                             kind: "custom", reason: "registered builder")
        }
        #expect(await registered.model(id: "local", config: config).availability() == .unavailable(.other("registered builder")))
    }

    @Test func aKindWithNoAdapterOnThisPlatformIsListedAsUnavailable() async {
        var config = document.models["local-smollm2"]!
        config.kind = .appleFoundationModels
        let model = ModelFactory(environment: { _ in nil }).model(id: "apple", config: config)
        #if !canImport(FoundationModels)
        #expect(await model.availability() == .unavailable(.other("provider kind apple-foundation-models is not supported on this platform")))
        await #expect(throws: GenerationError.self) { _ = try await model.generate(GenerationRequest(prompt: "hi")) }
        #endif
    }

    @Test func privateCloudComputeIsUnavailableWithoutTheAppleSDK() async {
        var config = document.models["local-smollm2"]!
        config.kind = .applePrivateCloudCompute
        config.tier = .privateCloud
        let model = ModelFactory(environment: { _ in nil }).model(id: "apple-pcc", config: config)
        #expect(model.tier == .privateCloud)
        #if !canImport(FoundationModels)
        let expected = ModelAvailability.unavailable(.other("provider kind apple-private-cloud-compute is not supported on this platform"))
        #expect(await model.availability() == expected)
        #endif
    }
}
