import Foundation
import HybridConfig
import HybridConfigTools
import HybridTestSupport
import HybridProjectTestSupport

/// `hybrid-bench cli [--samples 2000,20000] [--delays 0,20] [--concurrency 32] [--modes plain,stream] [--repeats 3] [--keep DIR]`: the real
/// release `hybrid eval` (a child process: start-up, config, dataset parsing, scoring, SQLite storage, exit) against
/// an out-of-process OpenAI-compatible stub, beside two raw clients on the same stub in the same run, neither of
/// which scores or stores anything: `curl --parallel` (libcurl's multi interface in C) and a Python aiohttp loop
/// (`scripts/aiohttp-bench-client.py`, the reference issue #10 stated its table against; skipped with a note when
/// `.venv` has no aiohttp: `make setup`). Prints samples/s, CPU ms/sample and peak RSS of each, and the CLI/raw
/// ratios.
///
/// Targets (issue #10): ratio >= 1.0 non-streaming and >= 0.8 streaming, CPU <= 0.25 ms/sample, RSS < 60 MB at
/// 20,000 samples, first request within 0.2 s.
enum CLIBenchmark {
    static let ratioTarget = (plain: 1.0, stream: 0.8)
    static let cpuTargetMs = 0.25
    static let rssTargetMB = 60.0

    struct Figures {
        var rate: Double
        var cpuMsPerSample: Double
        var rssMB: Double
        var failed: Bool
        /// From spawning the CLI to its first request reaching the stub (start-up, config, dataset, plan).
        var firstRequestSeconds: Double?

        /// Each figure's median over `runs` (the highest RSS); failed if any run failed.
        static func median(_ runs: [Figures]) -> Figures {
            let firstRequests = runs.compactMap(\.firstRequestSeconds)
            return Figures(
                rate: runs.map(\.rate).median, cpuMsPerSample: runs.map(\.cpuMsPerSample).median,
                rssMB: runs.map(\.rssMB).max() ?? 0, failed: runs.contains(where: \.failed),
                firstRequestSeconds: firstRequests.isEmpty ? nil : firstRequests.median)
        }
    }

    static func run(_ arguments: BenchmarkArguments) async throws {
        let sampleCounts = arguments.list("samples", default: [2_000, 20_000])
        let delays = arguments.list("delays", default: [0, 20])
        let concurrency = arguments.int("concurrency", default: 32)
        let modes = arguments.strings("modes", default: ["plain", "stream"])
        // One run on 2 shared cores varies by about 10 % (the client competes with the stub for them), so each
        // client runs `repeats` times, interleaved with the others, and the medians are compared.
        let repeats = max(1, arguments.int("repeats", default: 3))
        // `--keep DIR` leaves the configs, datasets and databases there, to rerun one CLI invocation under a profiler.
        let kept = arguments.string("keep")
        let directory = kept.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-bench-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { if kept == nil { try? FileManager.default.removeItem(at: directory) } }
        let hybrid = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("hybrid").path
        guard FileManager.default.isExecutableFile(atPath: hybrid) else {
            print("cli: \(hybrid) is missing; build it: swift build -c release --product hybrid")
            return
        }
        guard let curl = TransportBenchmark.which("curl") else {
            print("cli: curl is not installed; no raw client to compare with")
            return
        }
        let python = AiohttpClient.find()
        print("cli: release `hybrid eval` (scoring + SQLite) vs raw `curl --parallel`\(python == nil ? "" : " and a Python aiohttp loop") on one stub, concurrency \(concurrency); medians of \(repeats) interleaved runs each (load \(ResourceUsage.loadAverage()))")
        if python == nil { print("cli: no aiohttp in .venv (make setup installs it); comparing with curl only") }
        let firstRequestFile = directory.appendingPathComponent("first-request").path
        for delay in delays {
            let server = try ChildServer.start(["--delay-ms", "\(delay)", "--first-request-file", firstRequestFile])
            defer { server.kill() }
            for mode in modes {
                let streaming = mode == "stream"
                for samples in sampleCounts {
                    let setup = try Setup(directory: directory, port: server.port, samples: samples, streaming: streaming, concurrency: concurrency)
                    var rounds: [Round] = []
                    for _ in 0..<repeats {
                        rounds.append(try await measureRound(
                            hybrid: hybrid, curl: curl, python: python, setup: setup, samples: samples,
                            concurrency: concurrency, firstRequestFile: firstRequestFile))
                    }
                    let (cli, raw) = (Figures.median(rounds.map(\.cli)), Figures.median(rounds.map(\.raw)))
                    let aiohttp = python == nil ? nil : Figures.median(rounds.compactMap(\.aiohttp))
                    report(delay: delay, streaming: streaming, samples: samples, cli: cli, raw: raw, aiohttp: aiohttp)
                }
            }
        }
        try await FirstRequestBenchmark.run(arguments, hybrid: hybrid, directory: directory)
    }

    /// One run of each client on one configuration, back to back.
    struct Round {
        var cli: Figures
        var raw: Figures
        var aiohttp: Figures?
    }

    private static func measureRound(
        hybrid: String, curl: String, python: AiohttpClient?, setup: Setup, samples: Int, concurrency: Int,
        firstRequestFile: String
    ) async throws -> Round {
        let raw = try await measureRaw(curl: curl, setup: setup, samples: samples, concurrency: concurrency)
        let aiohttp = try await python.asyncMap {
            try await $0.measure(url: setup.url, body: setup.body, samples: samples, concurrency: concurrency)
        }.map { figures($0, samples: samples) }
        try? FileManager.default.removeItem(atPath: firstRequestFile)
        // Each round stores a new run: the run id of the last one would only be resumed (and found complete).
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: setup.database + suffix) }
        let spawned = Date().timeIntervalSince1970
        var cli = try await measureCLI(hybrid: hybrid, setup: setup, samples: samples, concurrency: concurrency)
        cli.firstRequestSeconds = (try? String(contentsOfFile: firstRequestFile, encoding: .utf8))
            .flatMap(Double.init).map { $0 - spawned }
        return Round(cli: cli, raw: raw, aiohttp: aiohttp)
    }

    private static func report(delay: Int, streaming: Bool, samples: Int, cli: Figures, raw: Figures, aiohttp: Figures?) {
        let ratio = quotient(cli.rate, raw.rate)
        let target = streaming ? ratioTarget.stream : ratioTarget.plain
        var verdicts: [String] = [ratio >= target ? "curl ratio OK" : "curl ratio BELOW \(target)"]
        var pythonColumn = ""
        if let aiohttp {
            let pythonRatio = quotient(cli.rate, aiohttp.rate)
            verdicts.append(pythonRatio >= target ? "aiohttp ratio OK" : "aiohttp ratio BELOW \(target)")
            // The CPU target is absolute, stated where aiohttp took 0.26 ms/sample; hosts differ about two-fold in
            // speed from one day to the next, so the CPU relative to aiohttp's in the same minute is printed beside it.
            let cpuShare = quotient(cli.cpuMsPerSample, aiohttp.cpuMsPerSample)
            pythonColumn = String(
                format: " | aiohttp %6.0f/s %.3f CPU ms %3.0f MB | ratio %.2f, CPU %.2f of aiohttp's", aiohttp.rate,
                aiohttp.cpuMsPerSample, aiohttp.rssMB, pythonRatio, cpuShare)
        }
        verdicts.append(cli.cpuMsPerSample <= cpuTargetMs ? "cpu OK" : "cpu ABOVE \(cpuTargetMs)")
        if samples >= 20_000 { verdicts.append(cli.rssMB < rssTargetMB ? "rss OK" : "rss ABOVE \(Int(rssTargetMB)) MB") }
        if let first = cli.firstRequestSeconds {
            verdicts.append(String(format: "first request after %.0f ms%@", first * 1000, first <= 0.2 ? "" : " (target 200)"))
        }
        if cli.failed || raw.failed || aiohttp?.failed == true { verdicts.append("A RUN FAILED") }
        print(String(
            format: "  %2d ms %@ %6d samples | hybrid %6.0f/s %.3f CPU ms %3.0f MB | curl %6.0f/s %.3f CPU ms %3.0f MB | ratio %.2f%@ | %@",
            delay, streaming ? "stream" : "plain ", samples, cli.rate, cli.cpuMsPerSample, cli.rssMB,
            raw.rate, raw.cpuMsPerSample, raw.rssMB, ratio, pythonColumn, verdicts.joined(separator: ", ")))
    }

    /// `value / reference`, or 0 when the reference run measured nothing (it failed before its first sample).
    private static func quotient(_ value: Double, _ reference: Double) -> Double {
        reference > 0 ? value / reference : 0
    }

    /// The files one configuration needs: config, dataset, request body and curl's URL list.
    struct Setup {
        var config: String
        var dataset: String
        var body: String
        var urls: String
        var database: String
        /// The stub's Chat Completions endpoint.
        var url: String

        init(directory: URL, port: Int, samples: Int, streaming: Bool, concurrency: Int) throws {
            let name = "\(streaming ? "stream" : "plain")-\(samples)-\(port)"
            config = directory.appendingPathComponent("\(name).config.json").path
            dataset = directory.appendingPathComponent("\(name).jsonl").path
            body = directory.appendingPathComponent("\(name).body.json").path
            urls = directory.appendingPathComponent("\(name).urls").path
            database = directory.appendingPathComponent("\(name).sqlite").path
            let baseURL = "http://127.0.0.1:\(port)/v1"
            url = "\(baseURL)/chat/completions"

            var document = try HybridConfigDocument.bundledDefaults().document
            var bench = ModelConfig(
                kind: .openAICompatible, baseURL: baseURL, model: "bench", tier: .privateCloud,
                pricing: ModelPricing(inputPerMillion: 0.5, outputPerMillion: 1.5), contextWindow: 8192,
                capabilities: .init(structuredOutput: false, streaming: streaming))
            bench.maxConcurrency = concurrency
            document.models = ["bench": bench]
            document.features = ["summarize": document.features["summarize"]!]
            document.features["summarize"]!.priority = ["bench"]
            document.rollouts = [:]
            try document.encodedJSON().write(to: URL(fileURLWithPath: config))

            var lines = ""
            lines.reserveCapacity(samples * 120)
            for i in 0..<samples {
                lines += #"{"id":"case-\#(i)","input":{"input":"Synthetic case \#(i): the council closed the bridge for repairs."},"reference":{"expectedText":"The council closed the bridge."}}"# + "\n"
            }
            try lines.write(toFile: dataset, atomically: true, encoding: .utf8)

            let request = #"{"messages":[{"content":"You are a helpful assistant.","role":"system"},{"content":"Summarise: Synthetic case 1: the council closed the bridge for repairs.","role":"user"}],"max_tokens":160,"model":"bench","stream":\#(streaming),"temperature":0.2}"#
            try request.write(toFile: body, atomically: true, encoding: .utf8)
            let entry = "url = \"\(baseURL)/chat/completions\"\noutput = \"/dev/null\"\n"
            try String(repeating: entry, count: samples).write(toFile: urls, atomically: true, encoding: .utf8)
        }
    }

    private static func measureCLI(hybrid: String, setup: Setup, samples: Int, concurrency: Int) async throws -> Figures {
        let arguments = [
            "eval", "--config", setup.config, "--db", setup.database, "--feature", "summarize", "--dataset", setup.dataset,
            "--variants", "concise", "--concurrency", "\(concurrency)", "--run-id", "bench",
        ]
        let usage = try await MeasuredProcess(hybrid, arguments, timeout: .seconds(600)).run()
        if usage.status != 0 { print("  hybrid eval exited \(usage.status): \(usage.output.suffix(400))") }
        return figures(usage, samples: samples)
    }

    private static func measureRaw(curl: String, setup: Setup, samples: Int, concurrency: Int) async throws -> Figures {
        let arguments = [
            "--silent", "--parallel", "--parallel-max", "\(concurrency)", "-H", "Content-Type: application/json",
            "--data-binary", "@\(setup.body)", "-K", setup.urls,
        ]
        let usage = try await MeasuredProcess(curl, arguments, timeout: .seconds(600)).run(captureOutput: false)
        return figures(usage, samples: samples)
    }

    static func figures(_ usage: MeasuredProcess.Usage, samples: Int) -> Figures {
        Figures(
            rate: Double(samples) / max(usage.wallSeconds, 1e-9),
            cpuMsPerSample: usage.cpuSeconds * 1000 / Double(samples),
            rssMB: Double(usage.peakRSSBytes) / 1_048_576,
            failed: usage.status != 0)
    }
}

/// The Python aiohttp loop (`scripts/aiohttp-bench-client.py`) run by `.venv`'s Python from the repository root.
struct AiohttpClient {
    let python: String
    let script: String

    /// The client when `.venv` has aiohttp (installed by `make setup`); nil otherwise.
    static func find() -> AiohttpClient? {
        let client = AiohttpClient(python: ".venv/bin/python", script: "scripts/aiohttp-bench-client.py")
        guard FileManager.default.isExecutableFile(atPath: client.python), FileManager.default.fileExists(atPath: client.script)
        else { return nil }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: client.python)
        probe.arguments = ["-c", "import aiohttp"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return nil }
        probe.waitUntilExit()
        return probe.terminationStatus == 0 ? client : nil
    }

    func measure(url: String, body: String, samples: Int, concurrency: Int) async throws -> MeasuredProcess.Usage {
        try await MeasuredProcess(python, [script, url, body, "\(samples)", "\(concurrency)"], timeout: .seconds(600))
            .run(captureOutput: false)
    }
}

extension Optional {
    /// `map` with an async transform.
    fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
