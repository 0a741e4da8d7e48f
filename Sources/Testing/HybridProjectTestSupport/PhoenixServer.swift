public import Foundation
public import HybridTransport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Arize Phoenix (PyPI `arize-phoenix`, installed into `.hybrid/phoenix` by `scripts/setup-phoenix.sh`, which
/// `make test` runs) serving on 127.0.0.1 from a private working folder: an OpenTelemetry backend that takes
/// OTLP/HTTP protobuf on `/v1/traces` and gives the spans back through its REST API.
public final class PhoenixServer: Sendable {
    /// Why Phoenix could not be used.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Its base URL: the OTLP endpoint, the REST API and the web UI.
    public let baseURL: String
    private let directory: URL
    private let process: Process

    /// Starts Phoenix from the project's `.hybrid/phoenix`; `waitUntilReady` before sending.
    public init(projectRoot: URL) throws {
        let executable = projectRoot.appendingPathComponent(".hybrid/phoenix/bin/phoenix")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw Failure(description: "Arize Phoenix is not installed at \(executable.path); run `bash scripts/setup-phoenix.sh` (make test does)")
        }
        directory = URL(fileURLWithPath: "/tmp/hybrid-phoenix-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let port = try NginxServer.freeLoopbackPort()
        baseURL = "http://127.0.0.1:\(port)"
        process = Process()
        process.executableURL = executable
        process.arguments = ["serve"]
        var environment = ProcessInfo.processInfo.environment
        environment["PHOENIX_WORKING_DIR"] = directory.path
        environment["PHOENIX_HOST"] = "127.0.0.1"
        environment["PHOENIX_PORT"] = String(port)
        environment["PHOENIX_GRPC_PORT"] = String(try NginxServer.freeLoopbackPort())
        environment["PHOENIX_TELEMETRY_ENABLED"] = "false"
        process.environment = environment
        let log = directory.appendingPathComponent("phoenix.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
    }

    /// Waits until `/healthz` answers 200 (Phoenix migrates its database and builds its app first: seconds to a
    /// minute on a loaded 2-core machine); throws with its log when it exits or stalls.
    public func waitUntilReady(transport: any HTTPTransport, timeout: Duration = .seconds(180)) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard process.isRunning else { throw Failure(description: "Phoenix exited: \(log)") }
            let probe = HTTPRequest(url: baseURL + "/healthz", timeouts: HTTPTimeouts(connect: .seconds(1), total: .seconds(2)))
            if let (response, _) = try? await transport.send(probe), response.status == 200 { return }
            try await Task.sleep(for: .milliseconds(250))
        }
        throw Failure(description: "Phoenix did not answer within \(timeout): \(log)")
    }

    /// The end of Phoenix's log, for failure messages.
    public var log: String {
        let text = (try? String(contentsOf: directory.appendingPathComponent("phoenix.log"), encoding: .utf8)) ?? "(no log)"
        return String(text.suffix(2_000))
    }

    /// SIGTERM, then SIGKILL after five seconds; removes the working folder.
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning && Date() < deadline { usleep(50_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }
}
