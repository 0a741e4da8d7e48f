import Foundation
import Glibc
import HybridCurl
import HybridTransport
import Synchronization

/// `hybrid-bench transport [--requests N] [--concurrency C]`: requests/s, CPU per request and RSS of
/// CurlTransport and URLSessionTransport against a loopback server in a child process, then the same load from
/// reference clients (`curl --parallel`, a threaded Python http.client) against the same server. Target:
/// CurlTransport >= 50% of the fastest reference; URLSessionTransport is printed beside it, with no target.
enum TransportBenchmark {
    static let target = 0.5

    static func run(_ arguments: BenchmarkArguments) async throws {
        let requests = arguments.int("requests", default: 20_000)
        let concurrency = arguments.int("concurrency", default: 32)
        let server = try ChildServer.start()
        defer { server.kill() }
        let url = "http://127.0.0.1:\(server.port)/v1/chat/completions"
        print("transport: \(requests) GET requests, concurrency \(concurrency), server pid \(server.pid) on port \(server.port), "
              + "load average \(ResourceUsage.loadAverage())")

        let swift = try await measureSwift(
            CurlTransport(maxConnections: max(64, concurrency * 2)), url: url, requests: requests, concurrency: concurrency)
        print(swift.line("swift CurlTransport"))
        // After curl's run, so its RSS figure includes what the curl transport left behind: compare the deltas.
        let urlSession = try await measureSwift(
            URLSessionTransport(maxConnectionsPerHost: max(64, concurrency * 2)), url: url, requests: requests, concurrency: concurrency)
        print(urlSession.line("swift URLSessionTransport"))

        var references: [(name: String, rate: Double)] = []
        if let curl = measureCurl(url: url, requests: requests, concurrency: concurrency) {
            print(String(format: "  curl --parallel --parallel-max %d: %.0f req/s, %.3f CPU ms/req", concurrency, curl.rate, curl.cpuMillisPerRequest))
            references.append(("curl --parallel", curl.rate))
        } else {
            print("  curl: not available or failed")
        }
        if let python = measurePython(url: url, port: server.port, requests: requests, concurrency: concurrency) {
            print(String(format: "  python http.client x%d threads: %.0f req/s, %.3f CPU ms/req", concurrency, python.rate, python.cpuMillisPerRequest))
            references.append(("python", python.rate))
        } else {
            print("  python3: not available or failed")
        }

        var line = String(format: "transport: swift %.0f req/s, %.2f CPU ms/req, peak RSS %.0f MB | urlsession %.0f req/s, %.2f CPU ms/req",
                          swift.rate, swift.cpuMillisPerRequest, Double(swift.peakRSS) / 1_048_576,
                          urlSession.rate, urlSession.cpuMillisPerRequest)
        for reference in references { line += String(format: " | %@ %.0f req/s", reference.name, reference.rate) }
        if let fastest = references.map(\.rate).max(), fastest > 0 {
            let ratio = swift.rate / fastest
            line += String(format: " | ratio %.2f (target >= %.2f) %@", ratio, target, ratio >= target ? "OK" : "BELOW TARGET")
        }
        print(line + " (load average \(ResourceUsage.loadAverage()))")
    }

    struct Measurement {
        var rate: Double
        var cpuMillisPerRequest: Double
        var peakRSS: Int = 0
        /// Resident set size right after the run, before and after it (the peak is process-wide).
        var rssBefore: Int = 0
        var rssAfter: Int = 0
        var failures: Int = 0

        /// One report line for a Swift transport.
        func line(_ name: String) -> String {
            String(format: "  %@: %.0f req/s, %.3f CPU ms/req, RSS %.1f -> %.1f MB, peak RSS %.1f MB, %d failed",
                   name, rate, cpuMillisPerRequest, Double(rssBefore) / 1_048_576, Double(rssAfter) / 1_048_576,
                   Double(peakRSS) / 1_048_576, failures)
        }
    }

    // MARK: Swift

    private final class Counter: Sendable {
        let next = Atomic<Int>(0)
        let failures = Atomic<Int>(0)
    }

    private static func measureSwift(
        _ transport: any HTTPTransport, url: String, requests: Int, concurrency: Int
    ) async throws -> Measurement {
        let rssBefore = ResourceUsage.currentRSSBytes()
        let request = HTTPRequest(url: url, headers: ["Accept": "application/json"])
        // Warm-up: open the connections and fault in the code paths; not measured.
        _ = try await load(transport, request, requests: min(1000, requests), concurrency: concurrency)

        let cpuBefore = ResourceUsage.cpuSeconds()
        let start = ContinuousClock.now
        let failures = try await load(transport, request, requests: requests, concurrency: concurrency)
        let elapsed = seconds(ContinuousClock.now - start)
        let cpu = ResourceUsage.cpuSeconds() - cpuBefore
        return Measurement(
            rate: Double(requests) / elapsed,
            cpuMillisPerRequest: cpu * 1000 / Double(requests),
            peakRSS: ResourceUsage.peakRSSBytes(),
            rssBefore: rssBefore,
            rssAfter: ResourceUsage.currentRSSBytes(),
            failures: failures
        )
    }

    /// Runs `requests` requests with `concurrency` workers; returns how many failed or had a wrong body.
    private static func load(_ transport: any HTTPTransport, _ request: HTTPRequest, requests: Int, concurrency: Int) async throws -> Int {
        let counter = Counter()
        let expectedLength = LoopbackServeCommand.body.utf8.count
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    while counter.next.add(1, ordering: .relaxed).oldValue < requests {
                        do {
                            let (response, body) = try await transport.send(request)
                            if response.status != 200 || body.count != expectedLength {
                                counter.failures.add(1, ordering: .relaxed)
                            }
                        } catch {
                            counter.failures.add(1, ordering: .relaxed)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        return counter.failures.load(ordering: .relaxed)
    }

    // MARK: References

    private static func measureCurl(url: String, requests: Int, concurrency: Int) -> Measurement? {
        guard let curl = which("curl") else { return nil }
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-bench-curl-\(getpid()).cfg")
        defer { try? FileManager.default.removeItem(at: config) }
        let entry = "url = \"\(url)\"\noutput = \"/dev/null\"\n"
        do {
            try String(repeating: entry, count: requests).write(to: config, atomically: true, encoding: .utf8)
        } catch {
            return nil
        }
        let arguments = ["--silent", "--parallel", "--parallel-max", "\(concurrency)", "-H", "Accept: application/json", "-K", config.path]
        guard let run = runChild(curl, arguments), run.status == 0 else { return nil }
        return Measurement(rate: Double(requests) / run.elapsed, cpuMillisPerRequest: run.cpu * 1000 / Double(requests))
    }

    private static func measurePython(url: String, port: Int, requests: Int, concurrency: Int) -> Measurement? {
        guard let python = which("python3") else { return nil }
        let script = """
            import http.client, sys, threading, time
            port, n, workers = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
            lock = threading.Lock()
            state = {"next": 0, "failed": 0}
            def worker():
                conn = http.client.HTTPConnection("127.0.0.1", port)
                while True:
                    with lock:
                        i = state["next"]; state["next"] += 1
                    if i >= n:
                        break
                    conn.request("GET", "/v1/chat/completions", headers={"Accept": "application/json"})
                    response = conn.getresponse()
                    body = response.read()
                    if response.status != 200:
                        with lock:
                            state["failed"] += 1
                conn.close()
            start = time.perf_counter()
            threads = [threading.Thread(target=worker) for _ in range(workers)]
            for t in threads: t.start()
            for t in threads: t.join()
            print(time.perf_counter() - start, state["failed"])
            """
        guard let run = runChild(python, ["-c", script, "\(port)", "\(requests)", "\(concurrency)"], captureOutput: true),
            run.status == 0,
            let fields = run.output?.split(separator: " "), let inner = fields.first.flatMap({ Double($0) }), inner > 0
        else { return nil }
        // The script times its own requests, leaving out interpreter start-up.
        return Measurement(rate: Double(requests) / inner, cpuMillisPerRequest: run.cpu * 1000 / Double(requests))
    }

    private struct ChildRun {
        var status: Int32
        var elapsed: Double
        var cpu: Double
        var output: String?
    }

    /// Runs a reference client to completion; CPU comes from the reaped-children usage delta.
    private static func runChild(_ executable: String, _ arguments: [String], captureOutput: Bool = false) -> ChildRun? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = captureOutput ? pipe : FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let cpuBefore = ResourceUsage.childrenCPUSeconds()
        let start = ContinuousClock.now
        do {
            try process.run()
        } catch {
            return nil
        }
        let output = captureOutput ? String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) : nil
        process.waitUntilExit()
        return ChildRun(
            status: process.terminationStatus,
            elapsed: seconds(ContinuousClock.now - start),
            cpu: ResourceUsage.childrenCPUSeconds() - cpuBefore,
            output: output?.trimmingCharacters(in: .whitespacesAndNewlines)
        )
    }

    /// The first executable named `tool` on PATH.
    static func which(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func seconds(_ duration: Duration) -> Double {
        let (whole, attoseconds) = duration.components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
