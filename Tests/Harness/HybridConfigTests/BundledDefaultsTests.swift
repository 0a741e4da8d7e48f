import Foundation
@testable import HybridConfig
import HybridConfigTools
import HybridCore
import HybridTestSupport
import Testing

@Suite("Bundled defaults")
struct BundledDefaultsTests {
    /// Fails while Sources/Harness/HybridConfigTools/BundledDefaults.swift is stale: run scripts/generate-bundled-config.py.
    @Test func bundledDefaultsMatchPromptsFolder() throws {
        let prompts = ProjectRoot.url.appendingPathComponent("prompts")
        let enumerator = try #require(FileManager.default.enumerator(at: prompts, includingPropertiesForKeys: [.isRegularFileKey]))
        var onDisk: [String: String] = [:]
        for case let url as URL in enumerator where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            let relative = String(url.standardizedFileURL.path.dropFirst(prompts.standardizedFileURL.path.count + 1))
            onDisk[relative] = try String(contentsOf: url, encoding: .utf8)
        }
        #expect(!onDisk.isEmpty)
        #expect(Set(HybridConfigDocument.bundledFiles.keys) == Set(onDisk.keys), "run scripts/generate-bundled-config.py")
        for (path, text) in onDisk {
            #expect(HybridConfigDocument.bundledFiles[path] == text, "\(path) changed; run scripts/generate-bundled-config.py")
        }
    }

    @Test func requiredModelsAndPrices() throws {
        let doc = Fixtures.bundled().document
        let local = try #require(doc.models["local-smollm2"])
        #expect(local.kind == .llamaCpp && local.tier == .onDevice && local.contextWindow == 4096 && !local.isMetered)
        let openai = try #require(doc.models["openai-gpt-4o-mini"])
        #expect(openai.pricing == ModelPricing(inputPerMillion: 0.15, outputPerMillion: 0.60, cachedInputPerMillion: 0.075))
        #expect(openai.apiKeyEnv == "OPENAI_API_KEY")
        let claude = try #require(doc.models["anthropic-claude-haiku"])
        #expect(claude.pricing == ModelPricing(inputPerMillion: 0.80, outputPerMillion: 4.00, cachedInputPerMillion: 0.08))
        let gemini = try #require(doc.models["gemini-flash"])
        #expect(gemini.pricing == ModelPricing(inputPerMillion: 0.10, outputPerMillion: 0.40, cachedInputPerMillion: 0.025))
        #expect(Set(doc.features.keys) == ["summarize", "extract", "classify", "assistant"])
        #expect(doc.features["summarize"]?.constraints?.maxSentences == 3)
        #expect(doc.features["extract"]?.outputSchema != nil)
        // A million cached + a million fresh prompt tokens and a million completion tokens on gpt-4o-mini.
        let cost = try #require(openai.pricing).cost(of: TokenUsage(promptTokens: 2_000_000, completionTokens: 1_000_000, cachedTokens: 1_000_000))
        #expect(abs(cost - (0.15 + 0.075 + 0.60)) < 1e-9)
    }

    @Test func templatesRenderWithTheFeatureInputs() throws {
        let doc = Fixtures.bundled().document
        for (name, feature) in doc.features {
            for (variantName, variant) in feature.variants {
                let template = try PromptTemplate(try #require(variant.template, "\(name).\(variantName)"))
                let rendered = try template.render(Dictionary(uniqueKeysWithValues: feature.inputs.map { ($0, "TEXT") }))
                #expect(rendered.contains("TEXT"))
            }
        }
    }

    @Test func schemaFileIsJSONAndKnowsEveryEnumValue() throws {
        let schema = try JSONDecoder().decode(JSONValue.self, from: Data(HybridConfigDocument.jsonSchema.utf8))
        let kinds = schema["$defs"]?["model"]?["properties"]?["kind"]?["enum"]?.arrayValue?.compactMap(\.stringValue)
        #expect(Set(kinds ?? []) == Set(ProviderKind.allCases.map(\.rawValue)))
        let tiers = schema["$defs"]?["tier"]?["enum"]?.arrayValue?.compactMap(\.stringValue)
        #expect(Set(tiers ?? []) == Set(ModelTier.allCases.map(\.rawValue)))
        let privacy = schema["$defs"]?["feature"]?["properties"]?["privacy"]?["enum"]?.arrayValue?.compactMap(\.stringValue)
        #expect(Set(privacy ?? []) == Set(PrivacyClass.allCases.map(\.rawValue)))
    }

    @Test func privacyClassesBoundTiers() {
        #expect(PrivacyClass.sensitive.allows(tier: .onDevice) && !PrivacyClass.sensitive.allows(tier: .privateCloud))
        #expect(PrivacyClass.standard.allows(tier: .privateCloud) && !PrivacyClass.standard.allows(tier: .thirdParty))
        #expect(PrivacyClass.open.allows(tier: .thirdParty))
    }
}
