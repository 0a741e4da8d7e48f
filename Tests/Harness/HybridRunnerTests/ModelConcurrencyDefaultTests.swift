import HybridConfig
import HybridConfigTools
@testable import HybridRunner
import Testing

/// Requests an eval keeps in flight per model: the config's `maxConcurrency` when set, else the kind's default.
@Suite struct ModelConcurrencyDefaultTests {
    @Test func aSetValueIsKeptAndAbsentValuesFollowTheKind() throws {
        var models = try HybridConfigDocument.bundledDefaults().document.models
        models["openai-gpt-4o-mini"]?.maxConcurrency = 48
        #expect(models["openai-gpt-4o-mini"]?.effectiveMaxConcurrency == 48)
        #expect(models["local-smollm2"]?.effectiveMaxConcurrency == 1)
        #expect(models["gemini-flash"]?.effectiveMaxConcurrency == 16)
    }
}
