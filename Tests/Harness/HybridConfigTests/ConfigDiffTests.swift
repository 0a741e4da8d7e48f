import HybridConfig
import HybridConfigTools
import Testing

@Suite("Config diff")
struct ConfigDiffTests {
    @Test func equalDocumentsHaveNoDifferences() {
        let doc = Fixtures.bundled().document
        #expect(ConfigDiff.changes(from: doc, to: doc).isEmpty)
        #expect(ConfigDiff.render(from: doc, to: doc) == "no differences")
    }

    @Test func reportsOrdersPricesPromptsAndModels() {
        let old = Fixtures.bundled().document
        var new = old
        new.version = 2
        new.features["summarize"]?.priority = ["gemini-flash", "local-smollm2"]
        new.models["gemini-flash"]?.pricing?.inputPerMillion = 0.075
        new.models["ollama-llama3"] = new.models["local-smollm2"]
        new.models["anthropic-claude-haiku"] = nil
        new.features["summarize"]?.variants["concise"]?.template = "Summarize in one sentence.\n\n{{input}}"
        let text = ConfigDiff.render(from: old, to: new)
        #expect(text.contains("version: 1 → 2"))
        #expect(text.contains("features.summarize.priority: local-smollm2, gemini-flash, openai-gpt-4o-mini, anthropic-claude-haiku → gemini-flash, local-smollm2"))
        #expect(text.contains("models.gemini-flash.pricing.inputPerMillion: $0.1/M → $0.075/M"))
        #expect(text.contains("models.anthropic-claude-haiku: removed"))
        #expect(text.contains("models.ollama-llama3: added"))
        #expect(text.contains("features.summarize.variants.concise.template:\n"))
        #expect(text.contains("  + Summarize in one sentence."))
        #expect(text.contains("  - Summarize the text below in at most three short sentences."))
    }
}
