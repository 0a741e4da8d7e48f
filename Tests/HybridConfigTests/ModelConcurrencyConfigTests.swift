import Foundation
import HybridConfig
import Testing

/// `maxConcurrency` per model: validated with its JSON path, and a default per kind when absent.
@Suite("Model concurrency in the config")
struct ModelConcurrencyConfigTests {
    @Test func zeroIsAnErrorAtItsPath() {
        let issues = Fixtures.errors(Fixtures.config { $0.set(["models", "openai-gpt-4o-mini", "maxConcurrency"], 0) })
        #expect(issues.map(\.path) == ["models.openai-gpt-4o-mini.maxConcurrency"])
    }

    @Test func aSetValueIsKeptAndAbsentValuesFollowTheKind() throws {
        let data = Fixtures.config { $0.set(["models", "openai-gpt-4o-mini", "maxConcurrency"], 48) }
        let models = try ConfigValidator.load(data).document.models
        #expect(models["openai-gpt-4o-mini"]?.effectiveMaxConcurrency == 48)
        #expect(models["local-smollm2"]?.effectiveMaxConcurrency == 1)
        #expect(models["gemini-flash"]?.effectiveMaxConcurrency == 16)
    }
}
