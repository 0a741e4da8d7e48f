import Foundation
import HybridConfig
import HybridCore
import HybridCurl
import HybridProviders
import HybridRunner
import HybridStore
import HybridTestSupport
import HybridTransport
import Synchronization
import Testing
import HybridProjectTestSupport

/// Every call bounded in time, memory and count (issue #10), against loopback servers speaking OpenAI's Chat
/// Completions format (https://platform.openai.com/docs/api-reference/chat/object and
/// …/chat/streaming for the SSE chunks). The slow ones run the real `hybrid` CLI as a child process, as users do.
@Suite(.serialized) struct EvalLimitsTests {
    static let completion = #"{"id":"c1","object":"chat.completion","model":"fake","choices":[{"index":0,"message":{"role":"assistant","content":"The weather is fine."},"finish_reason":"stop"}],"usage":{"prompt_tokens":20,"completion_tokens":5,"total_tokens":25}}"#

    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-limits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A config with one summarize arm per given model, the feature's deadline and output budget set.
    private func config(
        models: [String: String], streaming: Bool = false, deadlineMs: Int? = nil, maxOutputTokens: Int? = nil,
        contextWindow: Int = 8192
    ) throws -> HybridConfigDocument {
        var document = try EvalRunnerTests.config(models: models)
        for id in models.keys {
            document.models[id]!.capabilities = .init(structuredOutput: false, streaming: streaming)
            document.models[id]!.contextWindow = contextWindow
        }
        document.features["summarize"]!.deadlineMs = deadlineMs
        if let maxOutputTokens {
            var options = document.features["summarize"]!.options ?? FeatureGenerationOptions()
            options.maxOutputTokens = maxOutputTokens
            document.features["summarize"]!.options = options
        }
        return document
    }

    /// Writes config and a one-case dataset; returns the CLI arguments of an eval over them.
    private func evalArguments(_ document: HybridConfigDocument, in dir: URL, input: String = "The weather is fine today.") throws -> [String] {
        let configPath = dir.appendingPathComponent("config.json").path
        try document.encodedJSON().write(to: URL(fileURLWithPath: configPath))
        let datasetPath = dir.appendingPathComponent("cases.jsonl").path
        try #"{"id": "k1", "input": {"input": "\#(input)"}}"#.write(toFile: datasetPath, atomically: true, encoding: .utf8)
        return [
            "eval", "--feature", "summarize", "--dataset", datasetPath, "--variants", "concise", "--run-id", "limits",
            "--config", configPath, "--db", dir.appendingPathComponent("runs.sqlite").path,
            // These servers never answer by design: a run that measured no answer is what is tested, not refused.
            "--allow-unavailable",
        ]
    }

    @Test func aServerThatNeverAnswersCostsOneFeatureDeadlineStoredAsTimeout() async throws {
        _ = try HybridCLI.executable()
        // Accepts, reads the request, never answers (until the client hangs up).
        let server = try LoopbackHTTPServer { _ in ScriptedResponse(parts: [.text("late")], headDelay: .seconds(60)) }
        defer { server.stop() }
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let arguments = try evalArguments(config(models: ["hang": server.baseURL + "/v1"], deadlineMs: 2_000), in: dir)

        let run = try await MeasuredProcess(try HybridCLI.executable().path, arguments, timeout: .seconds(30)).run()
        #expect(run.status == 0, "\(run.output)")
        let result = try #require(try await SQLiteResultStore(path: dir.appendingPathComponent("runs.sqlite").path).results(run: "limits").first)
        #expect(result.error?.kind == "timeout")
        // The cut attempt's time is stored, and no retry fitted in what was left of the deadline: the case took
        // under 3 s (before: three attempts until the server gave up). The process adds only its start-up.
        #expect(result.timings.totalMs >= 1_900 && result.timings.totalMs + result.timings.retryBackoffMs < 3_000)
        #expect(result.retries == 0)
        #expect(run.wallSeconds < 20, "the CLI took \(run.wallSeconds) s")
        #expect(server.requestCount == 1)
    }

    @Test func askGivesUpAtItsDeadline() async throws {
        let server = try LoopbackHTTPServer { _ in ScriptedResponse(parts: [.text("late")], headDelay: .seconds(60)) }
        defer { server.stop() }
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let configPath = dir.appendingPathComponent("config.json").path
        try config(models: ["hang": server.baseURL + "/v1"]).encodedJSON().write(to: URL(fileURLWithPath: configPath))

        let run = try await MeasuredProcess(
            try HybridCLI.executable().path,
            ["ask", "--model", "hang", "--deadline-ms", "1000", "--config", configPath, "--db", dir.appendingPathComponent("db.sqlite").path, "hello"],
            timeout: .seconds(30)
        ).run()
        #expect(run.status == 1)
        // 1 s of deadline plus the CLI's start-up, which a loaded machine stretches (before: 60 s).
        #expect(run.wallSeconds < 20, "ask took \(run.wallSeconds) s")
        #expect(run.output.contains("timeout") || run.output.contains("timed out"), "\(run.output)")
    }

    @Test func aThirtyMegabyteAnswerToA512TokenRequestStopsFastWithLittleMemory() async throws {
        // 30 MB of SSE content deltas (streaming arm) and 30 MB of JSON without a Content-Length (plain arm).
        let delta = #"data: {"id":"c1","object":"chat.completion.chunk","model":"fake","choices":[{"index":0,"delta":{"content":"\#(String(repeating: "blah ", count: 13_000))"},"finish_reason":null}]}"# + "\n\n"
        let chunk = Data(delta.utf8)
        let parts = [ScriptedResponse.Part](repeating: .bytes(chunk), count: 30_000_000 / chunk.count)
        let server = try LoopbackHTTPServer { request in
            if request.path.hasPrefix("/stream") {
                return ScriptedResponse(headers: [("Content-Type", "text/event-stream")], parts: parts, framing: .chunked)
            }
            let opening = ScriptedResponse.Part.text(#"{"id":"c1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":""#)
            return ScriptedResponse(headers: [("Content-Type", "application/json")], parts: [opening] + parts, framing: .closeDelimited)
        }
        defer { server.stop() }
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var document = try config(models: ["plain": server.baseURL + "/plain/v1", "stream": server.baseURL + "/stream/v1"], maxOutputTokens: 512)
        document.models["stream"]!.capabilities = .init(structuredOutput: false, streaming: true)
        let arguments = try evalArguments(document, in: dir)

        let run = try await MeasuredProcess(try HybridCLI.executable().path, arguments, timeout: .seconds(60)).run()
        #expect(run.status == 0, "\(run.output)")
        #expect(run.peakRSSBytes < 150 << 20, "peak RSS \(run.peakRSSBytes >> 20) MB")
        // Before: ~100 s of processing after the body arrived. Now the whole run is start-up plus a moment.
        #expect(run.wallSeconds < 20, "the CLI took \(run.wallSeconds) s")
        let results = try await SQLiteResultStore(path: dir.appendingPathComponent("runs.sqlite").path).results(run: "limits")
        #expect(results.count == 2)
        for result in results {
            #expect(result.error?.kind == "decoding_failure")
            #expect(result.error?.message.contains("response too large") == true, "\(String(describing: result.error))")
            #expect(result.error?.message.contains("512-token") == true)
            #expect(result.retries == 0)
            // Stopped within well under 2 s of the first byte, whatever the machine's load did to start-up.
            #expect(result.timings.totalMs < 2_000)
        }
    }

    @Test func everyRequestAServerDroppingKeepAliveConnectionsSawIsAStoredAttempt() async throws {
        let seen = Mutex(0)
        let server = try LoopbackHTTPServer { _ in
            let number = seen.withLock { count in
                count += 1
                return count
            }
            return number % 3 == 0 ? .hangUp : .json(Self.completion)
        }
        defer { server.stop() }
        let document = try config(models: ["drops": server.baseURL + "/v1"])
        let factory = ModelFactory(transport: CurlTransport(), environment: { _ in nil })
        let store = SQLiteResultStore(database: try HybridDatabase.inMemory())
        let plan = try EvalPlan(runID: "drops", feature: "summarize", config: document, configHash: "h", dataset: EvalRunnerTests.dataset())
        let summary = try await EvalRunner(
            store: store, models: ["drops": factory.model(id: "drops", config: document.models["drops"]!)],
            options: EvalOptions(concurrency: 2, perModelConcurrency: 2, retryPolicy: RetryPolicy(baseBackoff: .milliseconds(5)), scorers: [])
        ).run(plan)

        #expect(summary.stored == 12)
        let results = try await store.results(run: "drops")
        let attempts = results.reduce(0) { $0 + 1 + $1.retries }
        #expect(results.contains { $0.retries > 0 }, "the server dropped no connection mid-run")
        #expect(server.requestCount == attempts)
    }

    @Test func aPromptLargerThanTheContextWindowIsStoredWithoutACallUnlessAsked() async throws {
        let server = try LoopbackHTTPServer { _ in .json(Self.completion) }
        defer { server.stop() }
        let document = try config(models: ["small": server.baseURL + "/v1"], contextWindow: 100)
        let models = EvalRunnerTests.models(document)
        let cases = [EvalCase(id: "big", input: ["input": String(repeating: "word ", count: 200)], line: 1)]
        let plan = try EvalPlan(
            runID: "ctx", feature: "summarize", config: document, configHash: "h", dataset: EvalRunnerTests.dataset(cases),
            variants: ["concise"])

        let store = SQLiteResultStore(database: try HybridDatabase.inMemory())
        _ = try await EvalRunner(store: store, models: models, options: EvalOptions(scorers: [])).run(plan)
        let held = try #require(try await store.results(run: "ctx").first)
        #expect(held.error?.kind == "context_window_exceeded")
        #expect(held.error?.message.contains("not sent") == true)
        #expect(server.requestCount == 0)

        let sending = SQLiteResultStore(database: try HybridDatabase.inMemory())
        _ = try await EvalRunner(store: sending, models: models, options: EvalOptions(scorers: [], sendOversizedPrompts: true)).run(plan)
        #expect(try await sending.results(run: "ctx").first?.error == nil)
        #expect(server.requestCount == 1)
    }

    @Test func aDatasetLineWithInvalidUTF8IsNamed() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("bad.jsonl").path
        var bytes = Data(#"{"id": "a", "input": {"input": "fine"}}"#.utf8 + [0x0A])
        bytes += Data(#"{"id": "b", "input": {"input": "caf"#.utf8) + Data([0xC3, 0x28]) + Data(#""}}"#.utf8 + [0x0A])
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(throws: DatasetError.invalidLines([.invalidLine(path: path, line: 2, detail: "not valid UTF-8")])) {
            try Dataset.load(path: path)
        }
        #expect(try Dataset.load(path: path, skipInvalid: true).cases.map(\.id) == ["a"])
    }
}
