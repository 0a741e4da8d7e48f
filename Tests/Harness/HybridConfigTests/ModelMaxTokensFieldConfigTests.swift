import Foundation
import HybridConfig
import Testing

/// `maxTokensField` on a model entry: which Chat Completions field carries the output limit (OpenAI's reasoning
/// models refuse `max_tokens`), refused with its JSON path where it cannot apply.
@Suite("Model maxTokensField in the config")
struct ModelMaxTokensFieldConfigTests {
    @Test func aChatCompletionsModelKeepsIt() throws {
        let data = Fixtures.config { $0.set(["models", "openai-gpt-4o-mini", "maxTokensField"], "max_completion_tokens") }
        let models = try ConfigValidator.load(data).document.models
        #expect(models["openai-gpt-4o-mini"]?.maxTokensField == .maxCompletionTokens)
        #expect(models["gemini-flash"]?.maxTokensField == nil)
    }

    @Test func anotherAPIsModelIsAnErrorAtItsPath() {
        let issues = Fixtures.errors(Fixtures.config { $0.set(["models", "gemini-flash", "maxTokensField"], "max_tokens") })
        #expect(issues.map(\.path) == ["models.gemini-flash.maxTokensField"])
        #expect(issues.first?.message.contains("gemini") == true)
    }

    @Test func anUnknownFieldNameIsAnErrorAtItsPath() {
        let issues = Fixtures.errors(Fixtures.config { $0.set(["models", "openai-gpt-4o-mini", "maxTokensField"], "max_output") })
        #expect(issues.map(\.path) == ["models.openai-gpt-4o-mini.maxTokensField"], "\(issues)")
        #expect(issues.first?.message == #"unknown value "max_output"; expected one of "max_tokens", "max_completion_tokens""#)
    }
}
