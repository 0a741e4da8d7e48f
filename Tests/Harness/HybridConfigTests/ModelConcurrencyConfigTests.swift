import Foundation
import HybridConfig
import Testing

/// `maxConcurrency` per model is validated with its JSON path (the runner's defaults: `ModelConcurrencyDefaultTests`).
@Suite("Model concurrency in the config")
struct ModelConcurrencyConfigTests {
    @Test func zeroIsAnErrorAtItsPath() {
        let issues = Fixtures.errors(Fixtures.config { $0.set(["models", "openai-gpt-4o-mini", "maxConcurrency"], 0) })
        #expect(issues.map(\.path) == ["models.openai-gpt-4o-mini.maxConcurrency"])
    }

}
