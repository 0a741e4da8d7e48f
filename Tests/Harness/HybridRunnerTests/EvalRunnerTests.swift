import Foundation
import HybridConfig
import HybridConfigTools
import HybridCore
import HybridCurl
import HybridProviders
import HybridRunner
import HybridStore
import HybridTestSupport
import HybridTransport
import Synchronization
import Testing

/// The runner end to end over real sockets: OpenAI-compatible adapters talking to loopback servers whose latency
/// and failures are scripted per case, so every outcome is deterministic.
@Suite struct EvalRunnerTests {
    static let summarizeCases = (1...6).map { i in
        EvalCase(id: "c\(i)", input: ["input": "Case number \(i) says the weather is fine."],
                 reference: Reference(expectedText: "The weather is fine."), line: i)
    }

    /// A config whose summarize feature runs on the given fake models only.
    static func config(models: [String: String], apiKeyEnv: [String: String] = [:]) throws -> HybridConfigDocument {
        var document = try HybridConfigDocument.bundledDefaults().document
        document.models = [:]
        for (id, baseURL) in models {
            document.models[id] = ModelConfig(
                kind: .openAICompatible, baseURL: baseURL, model: "fake", tier: .privateCloud, apiKeyEnv: apiKeyEnv[id],
                pricing: ModelPricing(inputPerMillion: 1, outputPerMillion: 2), contextWindow: 8192,
                capabilities: .init(structuredOutput: true, streaming: true))
        }
        document.features = ["summarize": document.features["summarize"]!]
        document.features["summarize"]!.priority = models.keys.sorted()
        document.rollouts = [:]
        return document
    }

    static func models(_ document: HybridConfigDocument, environment: [String: String] = [:]) -> [String: any LanguageModel] {
        let factory = ModelFactory(transport: CurlTransport.shared, environment: { environment[$0] })
        return Dictionary(uniqueKeysWithValues: document.models.map { ($0.key, factory.model(id: $0.key, config: $0.value)) })
    }

    static func dataset(_ cases: [EvalCase] = summarizeCases) -> Dataset {
        Dataset(path: "memory.jsonl", cases: cases, contentHash: "hash-\(cases.count)", skipped: [])
    }

    @Test func storesEveryKeyWithMetricsRetriesAndTypedErrors() async throws {
        let fake = try FakeChatCompletionsServer { prompt, attempt in
            if prompt.contains("number 2") && attempt == 0 {
                return .fail(status: 429, type: "requests", code: "rate_limit_exceeded", message: "Rate limit reached",
                             headers: [("Retry-After", "0.2")])
            }
            if prompt.contains("number 3") {
                return .fail(status: 401, type: "invalid_request_error", code: "invalid_api_key", message: "Incorrect API key")
            }
            if prompt.contains("number 4") {
                return .fail(status: 500, type: "server_error", code: nil, message: "The server had an error")
            }
            return .reply("The weather is fine. It is sunny.", delay: .milliseconds(20))
        }
        defer { fake.stop() }
        let document = try Self.config(models: ["fake-a": fake.baseURL])
        let database = try HybridDatabase.inMemory()
        let store = SQLiteResultStore(database: database)
        let plan = try EvalPlan(runID: "r1", feature: "summarize", config: document, configHash: "h", dataset: Self.dataset())
        let runner = EvalRunner(
            store: store, models: Self.models(document),
            options: EvalOptions(retryPolicy: RetryPolicy(baseBackoff: .milliseconds(10)), scorers: [TokenF1Scorer()]))
        let summary = try await runner.run(plan)

        #expect(summary.stored == 12 && summary.planned == 12)   // 6 cases × 2 variants × 1 model
        #expect(!summary.interrupted)
        let results = try await store.results(run: "r1")
        #expect(Set(results.map(\.key)).count == 12)
        #expect(try await store.run(id: "r1")?.status == .completed)

        let rateLimited = results.filter { $0.key.caseID == "c2" }
        // Only the first request for a prompt is rate-limited; the variant whose request came first retried once.
        #expect(rateLimited.allSatisfy { $0.error == nil })
        let retried = try #require(rateLimited.first { $0.retries == 1 })
        #expect(retried.timings.retryBackoffMs >= 200)
        #expect(retried.timings.totalMs < retried.timings.retryBackoffMs + 5_000)

        let unauthorized = results.filter { $0.key.caseID == "c3" }
        #expect(unauthorized.allSatisfy { $0.error?.kind == "authentication" && $0.retries == 0 })
        let serverErrors = results.filter { $0.key.caseID == "c4" }
        #expect(serverErrors.allSatisfy { $0.error?.kind == "server_error" && $0.retries == 2 })

        let ok = try #require(results.first { $0.key.caseID == "c1" })
        #expect(ok.rawOutput == "The weather is fine. It is sunny.")
        #expect(ok.usage?.promptTokens == 20 && ok.usage?.isEstimated == false)
        #expect((ok.timings.ttftMs ?? 0) > 0 && ok.timings.ttftMs! <= ok.timings.totalMs)
        #expect(abs((ok.costUSD ?? 0) - Double(20 * 1 + 7 * 2) / 1_000_000) < 1e-12)
        #expect(ok.scores.first?.scorer == "token_f1")
        #expect(ok.constraints.map(\.name).contains("max_sentences"))
        #expect(ok.renderedPrompt?.contains("Case number 1") == true)
        #expect(ok.configHash == "h" && ok.configVersion == document.version)
    }

    @Test func anUnavailableArmIsStoredAsErrorsWithoutAnyRequest() async throws {
        let fake = try FakeChatCompletionsServer { _, _ in .reply("fine") }
        defer { fake.stop() }
        let document = try Self.config(models: ["keyed": fake.baseURL], apiKeyEnv: ["keyed": "FAKE_CLOUD_KEY"])
        let store = SQLiteResultStore(database: try HybridDatabase.inMemory())
        let plan = try EvalPlan(runID: "r2", feature: "summarize", config: document, configHash: "h", dataset: Self.dataset(), variants: ["concise"])
        let summary = try await EvalRunner(store: store, models: Self.models(document)).run(plan)
        #expect(summary.unavailableArms.map(\.reason) == ["FAKE_CLOUD_KEY not set"])
        let results = try await store.results(run: "r2")
        #expect(results.count == 6)
        #expect(results.allSatisfy { $0.error?.kind == "unavailable" && $0.error!.message.contains("FAKE_CLOUD_KEY not set") })
        #expect(fake.requestCount == 0)
    }

    @Test func theResponseCacheServesARepeatRunWithoutRequests() async throws {
        let fake = try FakeChatCompletionsServer { _, _ in .reply("The weather is fine.", delay: .milliseconds(5)) }
        defer { fake.stop() }
        let document = try Self.config(models: ["fake": fake.baseURL])
        let store = SQLiteResultStore(database: try HybridDatabase.inMemory())
        let models = Self.models(document)
        let first = try EvalPlan(runID: "a", feature: "summarize", config: document, configHash: "h", dataset: Self.dataset())
        _ = try await EvalRunner(store: store, models: models).run(first)
        let sent = fake.requestCount
        #expect(sent == 12)
        let second = try EvalPlan(runID: "b", feature: "summarize", config: document, configHash: "h", dataset: Self.dataset())
        let summary = try await EvalRunner(store: store, models: models, options: EvalOptions(useCache: true)).run(second)
        #expect(summary.cacheHits == 12)
        #expect(fake.requestCount == sent)
        let cached = try await store.results(run: "b")
        #expect(cached.allSatisfy { $0.cacheHit && $0.rawOutput == "The weather is fine." && $0.costUSD == 0 })
    }

    /// Repeats are separate draws: with `--cache` none is served from a sibling repeat, in the run itself or on a
    /// re-run, where repeat k reuses repeat k of the run before (so a re-run still costs nothing).
    @Test func theCacheNeverServesOneRepeatFromAnother() async throws {
        let fake = try FakeChatCompletionsServer { _, _ in .reply("The weather is fine.") }
        defer { fake.stop() }
        let document = try Self.config(models: ["fake": fake.baseURL])
        let store = SQLiteResultStore(database: try HybridDatabase.inMemory())
        let models = Self.models(document)
        let first = try EvalPlan(runID: "r-a", feature: "summarize", config: document, configHash: "h", dataset: Self.dataset(), repeats: 3)
        let measured = try await EvalRunner(store: store, models: models, options: EvalOptions(concurrency: 1, useCache: true)).run(first)
        #expect(measured.cacheHits == 0)
        #expect(fake.requestCount == 36)
        let second = try EvalPlan(runID: "r-b", feature: "summarize", config: document, configHash: "h", dataset: Self.dataset(), repeats: 3)
        let rerun = try await EvalRunner(store: store, models: models, options: EvalOptions(useCache: true)).run(second)
        #expect(rerun.cacheHits == 36)
        #expect(fake.requestCount == 36)
        // More repeats than before: only the new draws are sent.
        let third = try EvalPlan(runID: "r-c", feature: "summarize", config: document, configHash: "h", dataset: Self.dataset(), repeats: 4)
        let more = try await EvalRunner(store: store, models: models, options: EvalOptions(useCache: true)).run(third)
        #expect(more.cacheHits == 36)
        #expect(fake.requestCount == 48)
    }

    @Test func concurrencyIsCappedGloballyAndPerModel() async throws {
        let fake = try FakeChatCompletionsServer { _, _ in .reply("ok", delay: .milliseconds(30)) }
        defer { fake.stop() }
        let document = try Self.config(models: ["fake": fake.baseURL])
        let store = SQLiteResultStore(database: try HybridDatabase.inMemory())
        let plan = try EvalPlan(runID: "c", feature: "summarize", config: document, configHash: "h", dataset: Self.dataset(), repeats: 3)
        let options = EvalOptions(concurrency: 8, perModelConcurrency: 3)
        let summary = try await EvalRunner(store: store, models: Self.models(document), options: options).run(plan)
        #expect(summary.stored == 36)
        #expect(fake.maxConcurrentRequests <= 3)
        #expect(fake.maxConcurrentRequests >= 2)
    }

    @Test func cancellingLeavesAResumableRunThatResumeCompletesExactly() async throws {
        let fake = try FakeChatCompletionsServer { _, _ in .reply("fine", delay: .milliseconds(40)) }
        defer { fake.stop() }
        let document = try Self.config(models: ["fake": fake.baseURL])
        let store = SQLiteResultStore(database: try HybridDatabase.inMemory())
        let models = Self.models(document)
        let plan = try EvalPlan(runID: "r", feature: "summarize", config: document, configHash: "h", dataset: Self.dataset(), repeats: 4)
        let stored = Counter()
        let task = Task {
            try await EvalRunner(store: store, models: models, options: EvalOptions(concurrency: 2)).run(plan) { _ in stored.increment() }
        }
        while stored.value < 5 { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        let interrupted = try await task.value
        #expect(interrupted.interrupted)
        #expect(interrupted.stored < plan.plannedCount)
        #expect(try await store.run(id: "r")?.status == .interrupted)

        let resumed = try await EvalRunner(store: store, models: models).run(plan, resume: true)
        #expect(!resumed.interrupted)
        let keys = try await store.completedKeys(run: "r")
        #expect(keys.count == plan.plannedCount)
        #expect(try await store.resultCount(run: "r") == plan.plannedCount)
        #expect(try await store.run(id: "r")?.status == .completed)
    }

    @Test func resumeRefusesAChangedDataset() async throws {
        let fake = try FakeChatCompletionsServer { _, _ in .reply("fine") }
        defer { fake.stop() }
        let document = try Self.config(models: ["fake": fake.baseURL])
        let store = SQLiteResultStore(database: try HybridDatabase.inMemory())
        let plan = try EvalPlan(runID: "d", feature: "summarize", config: document, configHash: "h", dataset: Self.dataset(), limit: 1)
        _ = try await EvalRunner(store: store, models: Self.models(document)).run(plan)
        var changed = plan
        changed.dataset.contentHash = "other"
        await #expect(throws: EvalError.self) { try await EvalRunner(store: store, models: Self.models(document)).run(changed, resume: true) }
    }

    @Test func resumeRefusesAnotherConfigOrPlanByNameAndLeavesACompletedRunAlone() async throws {
        let fake = try FakeChatCompletionsServer { _, _ in .reply("fine") }
        defer { fake.stop() }
        let document = try Self.config(models: ["fake": fake.baseURL, "other": fake.baseURL])
        let store = SQLiteResultStore(database: try HybridDatabase.inMemory())
        let plan = try EvalPlan(
            runID: "p", feature: "summarize", config: document, configHash: "hash-a", dataset: Self.dataset(), models: ["fake"], limit: 2)
        _ = try await EvalRunner(store: store, models: Self.models(document)).run(plan)
        let before = try #require(try await store.run(id: "p"))
        let requests = fake.requestCount

        let otherPlan = try EvalPlan(
            runID: "p", feature: "summarize", config: document, configHash: "hash-b", dataset: Self.dataset(), models: ["fake", "other"],
            repeats: 2, limit: 2)
        do {
            _ = try await EvalRunner(store: store, models: Self.models(document)).run(otherPlan, resume: true)
            Issue.record("a resume under another config and plan must be refused")
        } catch {
            let message = error.description
            for part in ["config hash hash-a (version 1) vs hash-b (version 1)", "arms added: bullet@other, concise@other", "repeats 1 vs 2"] {
                #expect(message.contains(part), "\(message)")
            }
        }

        let again = try await EvalRunner(store: store, models: Self.models(document)).run(plan, resume: true)
        #expect(again.alreadyCompleted && again.stored == plan.plannedCount)
        #expect(try await store.run(id: "p") == before, "status, finish time and plan stay as they were")
        #expect(try await store.resultCount(run: "p") == plan.plannedCount)
        #expect(fake.requestCount == requests)
    }
}

final class Counter: Sendable {
    private let storage = Mutex(0)
    func increment() { storage.withLock { $0 += 1 } }
    var value: Int { storage.withLock { $0 } }
}

@Suite struct LLMJudgeTests {
    @Test func theJudgeScoreIsStoredWithItsOwnTokensAndCostApartFromTheArm() async throws {
        let arm = try FakeChatCompletionsServer { _, _ in .reply("The weather is fine.") }
        defer { arm.stop() }
        let judgeServer = try FakeChatCompletionsServer { prompt, _ in
            prompt.contains("Rubric:") ? .reply("4") : .reply("not a grade")
        }
        defer { judgeServer.stop() }
        let document = try EvalRunnerTests.config(models: ["arm": arm.baseURL, "grader": judgeServer.baseURL])
        let models = EvalRunnerTests.models(document)
        let judge = LLMJudge(model: models["grader"]!, inputPricePerMillion: 10, outputPricePerMillion: 30)
        let store = SQLiteResultStore(database: try HybridDatabase.inMemory())
        let plan = try EvalPlan(
            runID: "j", feature: "summarize", config: document, configHash: "h", dataset: EvalRunnerTests.dataset(),
            models: ["arm"], variants: ["concise"], limit: 2)
        _ = try await EvalRunner(store: store, models: models, options: EvalOptions(scorers: [], judge: judge)).run(plan)
        let results = try await store.results(run: "j")
        #expect(results.count == 2)
        for result in results {
            let score = try #require(result.scores.first { $0.scorer == "judge" })
            #expect(score.value == 0.75)
            let detail = try JSONDecoder().decode(JSONValue.self, from: Data(try #require(score.detail).utf8))
            #expect(detail["judge_model"] == "grader")
            #expect(detail["prompt_tokens"] == 20)
            // The arm pays its own tokens at its own price (1 and 2 per million); the judge's 10/30 are not added.
            #expect(abs((result.costUSD ?? 0) - Double(20 * 1 + 4 * 2) / 1_000_000) < 1e-12)
            #expect(abs((detail["cost_usd"]?.doubleValue ?? 0) - Double(20 * 10 + 1 * 30) / 1_000_000) < 1e-12)
        }
    }
}

@Suite struct FailedAttemptTimingTests {
    @Test func aFailedResultRecordsHowLongTheCallerWaitedToLearnOfIt() async throws {
        let fake = try FakeChatCompletionsServer { _, _ in
            .fail(status: 401, type: "invalid_request_error", code: "invalid_api_key", message: "Incorrect API key")
        }
        defer { fake.stop() }
        let document = try EvalRunnerTests.config(models: ["bad": fake.baseURL])
        let store = SQLiteResultStore(database: try HybridDatabase.inMemory())
        let plan = try EvalPlan(runID: "f", feature: "summarize", config: document, configHash: "h", dataset: EvalRunnerTests.dataset(), variants: ["concise"], limit: 1)
        _ = try await EvalRunner(store: store, models: EvalRunnerTests.models(document)).run(plan)
        let failed = try #require(try await store.results(run: "f").first)
        #expect(failed.error?.kind == "authentication")
        #expect(failed.timings.totalMs > 0)
    }
}
