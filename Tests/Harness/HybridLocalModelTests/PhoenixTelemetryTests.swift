import Foundation
import HybridConfig
import HybridCore
import HybridCurl
import HybridLocalModelTestSupport
import HybridProjectTestSupport
import HybridTestSupport
import HybridTransport
import Testing

/// The router's and an eval's spans in a real OpenTelemetry backend: Arize Phoenix from PyPI on 127.0.0.1, fed by
/// `hybrid-otlp` (the CLI with HybridOTLP: swift-otel's OTLP/HTTP protobuf exporter), read back through
/// Phoenix's own REST API, and its trace view photographed by Chromium.
///
/// The routed request (`hybrid ask --feature`) walks a loopback cloud that answers 503 (a fallback), then a loopback
/// cloud that answers only after 30 s, which the hedge races against the real SmolLM2 after 400 ms: SmolLM2 wins and
/// the slow call is cancelled. The eval is two cases, both prompt variants, on SmolLM2.
@Suite(.serialized) struct PhoenixTelemetryTests {
    static let project = "hybrid-phoenix-test"

    @Test("a routed request (fallback, hedge race) and a two-case eval, read back from Phoenix's API and screenshotted")
    func spansInPhoenix() async throws {
        guard LocalModelRequirement.installed() != nil else { return }
        let root = ProjectRoot.url
        let cli = try HybridCLI.executable("hybrid-otlp", packageRoot: root)
        let phoenix = try PhoenixServer(projectRoot: root)
        defer { phoenix.stop() }
        let broken = try FakeChatCompletionsServer { _, _ in
            .fail(status: 503, type: "server_error", code: nil, message: "overloaded")
        }
        defer { broken.stop() }
        let slow = try FakeChatCompletionsServer { _, _ in .reply("Too late.", delay: .seconds(30)) }
        defer { slow.stop() }
        try await withTemporaryDirectory { directory in
            let config = try Self.writeConfig(in: directory.url, broken: broken.baseURL, slow: slow.baseURL)
            let dataset = directory.url.appendingPathComponent("cases.jsonl")
            try Data(
                """
                {"id":"c1","input":{"input":"The council approved two new bike lanes on Main Street."}}
                {"id":"c2","input":{"input":"Rain is expected on Tuesday, clearing by the evening."}}

                """.utf8
            ).write(to: dataset)
            try await phoenix.waitUntilReady(transport: CurlTransport.shared)
            let export = ["--otlp-endpoint", phoenix.baseURL, "--otlp-service", Self.project]
            let ask = try await HybridCLI.run(
                ["ask", "--config", config.path, "--feature", "summarize", "--deadline-ms", "120000"] + export
                    + ["A new bridge links the two parks."],
                in: directory.url, environment: [LocalAndCloudConfig.cloudKeyVariable: "test-key"], executable: cli)
            #expect(ask.status == 0, "\(ask.output)")
            #expect(ask.output.contains("spans sent to \(phoenix.baseURL)"), "\(ask.output)")
            let eval = try await HybridCLI.run(
                ["eval", "--config", config.path, "--feature", "summarize", "--dataset", dataset.path, "--models",
                 LocalAndCloudConfig.localModel, "--db", directory.url.appendingPathComponent("runs.sqlite").path, "--run-id", "otlp-eval"]
                    + export,
                in: directory.url, environment: [LocalAndCloudConfig.cloudKeyVariable: "test-key"], executable: cli)
            #expect(eval.status == 0, "\(eval.output)")

            let spans = try await Self.spans(from: phoenix, atLeast: 9)  // 1 request + 3 calls, 1 run + 4 samples
            try Self.checkRoutedRequest(spans)
            try Self.checkEval(spans)
            try await Self.screenshot(phoenix, spans: spans, in: directory.url)
        }
    }

    @Test("a collector that refuses connections or never answers: the eval stores every result, exits 0 and says once what was not sent")
    func failingCollector() async throws {
        let cli = try HybridCLI.executable("hybrid-otlp", packageRoot: ProjectRoot.url)
        let model = try FakeChatCompletionsServer { _, _ in .reply("The weather is fine.") }
        defer { model.stop() }
        let hanging = try LoopbackHTTPServer { _ in
            var response = ScriptedResponse.json("{}")
            response.headDelay = .seconds(600)
            return response
        }
        defer { hanging.stop() }
        let refused = "http://127.0.0.1:\(try NginxServer.freeLoopbackPort())"
        try await withTemporaryDirectory { directory in
            let document = try LocalAndCloudConfig.document(feature: "summarize", cloudBaseURL: model.baseURL, maxOutputTokens: 16)
            let config = directory.url.appendingPathComponent("hybrid.config.json")
            try document.encodedJSON(pretty: true).write(to: config)
            for (index, endpoint) in [refused, hanging.baseURL].enumerated() {
                // Killed after 2 minutes: an exporter that held the process up would show as a SIGKILL, not a pass.
                let eval = try await HybridCLI.run(
                    ["eval", "--config", config.path, "--feature", "summarize", "--dataset", ProjectRoot.appending("datasets/summarize.jsonl").path,
                     "--limit", "3", "--models", LocalAndCloudConfig.cloudModel, "--run-id", "collector-\(index)",
                     "--db", directory.url.appendingPathComponent("runs.sqlite").path, "--otlp-endpoint", endpoint],
                    in: directory.url, killAfter: .seconds(120), environment: [LocalAndCloudConfig.cloudKeyVariable: "test-key"],
                    executable: cli)
                #expect(eval.status == 0, "\(endpoint): \(eval.output)")
                #expect(eval.output.contains("stored 6/6 results (0 errors"), "\(endpoint): \(eval.output)")
                let warnings = eval.output.components(separatedBy: "\n").filter { $0.contains("OTLP export to \(endpoint)") }
                #expect(warnings.count == 1, "\(endpoint): said \(warnings.count) times: \(eval.output)")
                #expect(eval.output.contains("warning: OTLP export to \(endpoint):"), "\(endpoint): \(eval.output)")
            }
        }
    }

    // MARK: - What Phoenix must hold

    /// The request's span (a chain) with four children: the 503 (error), the slow call (lost the race, cancelled,
    /// not an error), SmolLM2 (served, with tokens), in one trace.
    static func checkRoutedRequest(_ spans: [PhoenixSpan]) throws {
        let request = try #require(spans.first { $0.string("hybrid.feature") == "summarize" && $0.parentID == nil && $0.name.hasPrefix("chat ") })
        #expect(request.name == "chat broken")
        #expect(request.spanKind == "CHAIN")
        #expect(request.string("gen_ai.operation.name") == "chat")
        #expect(request.string("gen_ai.response.model") != nil)
        #expect(request.bool("hybrid.hedged") == true)
        let children = spans.filter { $0.parentID == request.spanID }
        #expect(children.allSatisfy { $0.traceID == request.traceID })
        let byModel = Dictionary(children.map { ($0.string("hybrid.model.id") ?? "?", $0) }, uniquingKeysWith: { first, _ in first })
        let failed = try #require(byModel["broken-cloud"], "children: \(children.map(\.name))")
        #expect(failed.statusCode == "ERROR")
        #expect(failed.string("hybrid.attempt.outcome") == "failed")
        let loser = try #require(byModel["slow-cloud"])
        #expect(loser.string("hybrid.attempt.outcome") == "lost_race")
        #expect(loser.bool("hybrid.attempt.cancelled") == true)
        #expect(loser.statusCode != "ERROR")
        let winner = try #require(byModel[LocalAndCloudConfig.localModel])
        #expect(winner.string("hybrid.attempt.outcome") == "served")
        #expect(winner.spanKind == "LLM")
        #expect(winner.string("gen_ai.provider.name") == "llama_cpp" || winner.string("gen_ai.provider.name") == "openai")
        #expect((winner.int("gen_ai.usage.output_tokens") ?? 0) > 0)
        // Phoenix's own reading of the GenAI names: the model and token counts it shows.
        #expect(winner.string("llm.model_name") != nil)
        #expect((winner.int("llm.token_count.completion") ?? 0) > 0)
    }

    /// The eval's run span and one child per case, each a model call with tokens and the case's id.
    static func checkEval(_ spans: [PhoenixSpan]) throws {
        let run = try #require(spans.first { $0.name == "eval summarize" })
        #expect(run.string("hybrid.eval.run_id") == "otlp-eval")
        #expect(run.int("hybrid.eval.stored") == 4)  // 2 cases × the feature's 2 prompt variants
        let samples = spans.filter { $0.parentID == run.spanID }
        #expect(samples.count == 4)
        #expect(Set(samples.compactMap { $0.string("hybrid.eval.case_id") }) == ["c1", "c2"])
        for sample in samples {
            #expect(sample.name == "chat \(try #require(sample.string("gen_ai.request.model")))")
            #expect(sample.string("hybrid.model.id") == LocalAndCloudConfig.localModel)
            #expect((sample.int("gen_ai.usage.input_tokens") ?? 0) > 0)
            #expect(sample.double("hybrid.eval.latency_ms").map { $0 > 0 } == true)
            #expect(sample.traceID == run.traceID)
        }
    }

    // MARK: - Set-up and reading back

    /// The bundled summarize feature over three models: the failing cloud, the slow cloud, SmolLM2; hedged after
    /// 400 ms onto any tier.
    static func writeConfig(in directory: URL, broken: String, slow: String) throws -> URL {
        var document = try LocalAndCloudConfig.document(
            feature: "summarize", cloudBaseURL: broken, maxOutputTokens: 24,
            adjust: { feature in
                feature.deadlineMs = 120_000
                feature.routing = RoutingConfig(hedge: HedgeConfig(afterMs: 400))
            })
        var failing = LocalAndCloudConfig.cloud(baseURL: broken)
        failing.model = "broken"
        var late = LocalAndCloudConfig.cloud(baseURL: slow)
        late.model = "slow"
        document.models["broken-cloud"] = failing
        document.models["slow-cloud"] = late
        document.models[LocalAndCloudConfig.cloudModel] = nil
        document.features["summarize"]?.priority = ["broken-cloud", "slow-cloud", LocalAndCloudConfig.localModel]
        let validated = try ConfigValidator.validate(document).document
        let file = directory.appendingPathComponent("hybrid.config.json")
        try validated.encodedJSON(pretty: true).write(to: file)
        return file
    }

    /// The project's spans once at least `count` have arrived (Phoenix files OTLP batches asynchronously).
    static func spans(from phoenix: PhoenixServer, atLeast count: Int) async throws -> [PhoenixSpan] {
        let url = "\(phoenix.baseURL)/v1/projects/\(project)/spans?limit=200"
        var spans: [PhoenixSpan] = []
        for _ in 0..<60 {
            let (status, body) = try await get(url)
            if status == 200 {
                spans = try PhoenixSpan.decode(body)
                if spans.count >= count { return spans }
            }
            try await Task.sleep(for: .milliseconds(500))
        }
        Issue.record("Phoenix holds \(spans.count) spans of \(project), expected at least \(count): \(phoenix.log)")
        return spans
    }

    /// A GET's status and whole body.
    static func get(_ url: String) async throws -> (Int, Data) {
        let (response, body) = try await CurlTransport.shared.send(HTTPRequest(url: url))
        return (response.status, body)
    }

    /// Phoenix's trace view of the routed request, as a person opening it would see it; kept as
    /// `.build/phoenix-trace.png` for the docs' screenshot (docs/images/phoenix-trace.png).
    static func screenshot(_ phoenix: PhoenixServer, spans: [PhoenixSpan], in directory: URL) async throws {
        let request = try #require(spans.first { $0.name == "chat broken" && $0.parentID == nil })
        let (_, projectBody) = try await get("\(phoenix.baseURL)/v1/projects/\(project)")
        let projectID = try #require(((try JSONSerialization.jsonObject(with: projectBody) as? [String: Any])?["data"] as? [String: Any])?["id"] as? String)
        let page = "\(phoenix.baseURL)/projects/\(projectID)/traces/\(request.traceID)"
        let chromium = try HeadlessChromium(workDirectory: directory)
        let file = ProjectRoot.appending(".build/phoenix-trace.png")
        let status = try await chromium.run([
            "--screenshot=\(file.path)", "--window-size=1440,900", "--virtual-time-budget=15000", "--hide-scrollbars", page,
        ]).status
        #expect(status == 0)
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        #expect(size > 20_000, "the screenshot of \(page) is \(size) bytes: the page did not render")
    }
}

/// One span as Phoenix's REST API returns it (`GET /v1/projects/{project}/spans`), attributes flattened to their
/// dotted names.
struct PhoenixSpan {
    var name: String
    var traceID: String
    var spanID: String
    var parentID: String?
    var spanKind: String
    var statusCode: String
    var attributes: [String: Any]

    static func decode(_ body: Data) throws -> [PhoenixSpan] {
        let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        let rows = object?["data"] as? [[String: Any]] ?? []
        return rows.map { row in
            let context = row["context"] as? [String: Any] ?? [:]
            var flat: [String: Any] = [:]
            flatten(row["attributes"] as? [String: Any] ?? [:], prefix: "", into: &flat)
            return PhoenixSpan(
                name: row["name"] as? String ?? "", traceID: context["trace_id"] as? String ?? "",
                spanID: context["span_id"] as? String ?? "", parentID: row["parent_id"] as? String,
                spanKind: (row["span_kind"] as? String ?? "").uppercased(), statusCode: (row["status_code"] as? String ?? "").uppercased(),
                attributes: flat)
        }
    }

    private static func flatten(_ object: [String: Any], prefix: String, into flat: inout [String: Any]) {
        for (key, value) in object {
            let name = prefix.isEmpty ? key : "\(prefix).\(key)"
            if let nested = value as? [String: Any] { flatten(nested, prefix: name, into: &flat) } else { flat[name] = value }
        }
    }

    func string(_ name: String) -> String? { attributes[name] as? String }
    func bool(_ name: String) -> Bool? { attributes[name] as? Bool }
    func int(_ name: String) -> Int? { (attributes[name] as? NSNumber)?.intValue ?? (attributes[name] as? String).flatMap { Int($0) } }
    func double(_ name: String) -> Double? { (attributes[name] as? NSNumber)?.doubleValue }
}
