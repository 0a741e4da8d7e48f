import Foundation
import HybridConfig
import HybridCore
import HybridRunner
import HybridStore
import HybridTestSupport
import InMemoryTracing
import Testing
import Tracing

/// `hybrid eval --otlp-endpoint`'s spans, recorded by an in-memory tracer: one per run, one per stored result as the
/// GenAI conventions' model call, each with its case, tokens and checks, nested under the run.
@Suite struct EvalTelemetryTests {
    @Test("a run span with one model-call child per stored result: case, variant, tokens, latency, error")
    func spansFollowStoredResults() async throws {
        let tracer = InMemoryTracer()
        let (_, store) = try await Self.run("traced", cases: 3, tracer: tracer, scorers: [TokenF1Scorer()]) { prompt, _ in
            prompt.contains("number 3")
                ? .fail(status: 500, type: "server_error", code: nil, message: "The server had an error")
                : .reply("The weather is fine.", delay: .milliseconds(5))
        }
        let spans = tracer.finishedSpans
        let run = try #require(spans.first { $0.operationName == "eval summarize" })
        #expect(Self.string(run, "hybrid.eval.run_id") == "traced")
        #expect(Self.int(run, "hybrid.eval.stored") == 3)
        let samples = spans.filter { $0.parentSpanID == run.spanID }
        #expect(samples.count == 3)
        let results = try await store.results(run: "traced")
        for sample in samples {
            let caseID = try #require(Self.string(sample, "hybrid.eval.case_id"))
            let result = try #require(results.first { $0.key.caseID == caseID })
            #expect(sample.operationName == "chat fake")
            #expect(sample.kind == .client)
            #expect(sample.traceID == run.traceID)
            #expect(Self.string(sample, "hybrid.variant") == "concise")
            #expect(Self.string(sample, "gen_ai.provider.name") == "openai")
            let millis = (sample.endInstant.nanosecondsSinceEpoch - sample.startInstant.nanosecondsSinceEpoch) / 1_000_000
            #expect(Double(millis) <= result.timings.totalMs + 1 && Double(millis) >= result.timings.totalMs - 1)
            if caseID == "c3" {
                #expect(Self.string(sample, "error.type") != nil)
                #expect(sample.status?.code == .error)
                #expect(sample.attributes["gen_ai.usage.output_tokens"] == nil)
            } else {
                #expect(Self.int(sample, "gen_ai.usage.output_tokens") == result.usage?.completionTokens)
                #expect(sample.attributes["hybrid.eval.score.token_f1"] != nil)
                #expect(sample.status == nil)
            }
        }
    }

    /// `cases` summarize cases through one loopback model answering by `script`, the concise variant only, no
    /// retries, recorded into `tracer`; the summary and the store the results went to.
    static func run(
        _ runID: String, cases: Int, tracer: any Tracer, scorers: [any QualityScorer],
        script: @escaping FakeChatCompletionsServer.Script
    ) async throws -> (EvalSummary, SQLiteResultStore) {
        let fake = try FakeChatCompletionsServer(script: script)
        defer { fake.stop() }
        let document = try EvalRunnerTests.config(models: ["fake-a": fake.baseURL])
        let store = SQLiteResultStore(database: try HybridDatabase.inMemory())
        let plan = try EvalPlan(
            runID: runID, feature: "summarize", config: document, configHash: "h",
            dataset: EvalRunnerTests.dataset(Array(EvalRunnerTests.summarizeCases.prefix(cases))), variants: ["concise"])
        var options = EvalOptions(retryPolicy: .none, scorers: scorers)
        options.tracer = tracer
        let summary = try await EvalRunner(store: store, models: EvalRunnerTests.models(document), options: options).run(plan)
        return (summary, store)
    }

    static func string(_ span: FinishedInMemorySpan, _ name: String) -> String? {
        if case .string(let value) = span.attributes[name]?.toSpanAttribute() { return value }
        return nil
    }

    static func int(_ span: FinishedInMemorySpan, _ name: String) -> Int? {
        if case .int64(let value) = span.attributes[name]?.toSpanAttribute() { return Int(value) }
        return nil
    }

    @Test("no tracer installed: the runner writes no span and builds none")
    func noTracerNoSpans() async throws {
        let (summary, _) = try await Self.run("plain", cases: 1, tracer: NoOpTracer(), scorers: StandardScorers.all) { _, _ in .reply("Fine.") }
        #expect(summary.stored == 1)
    }
}
