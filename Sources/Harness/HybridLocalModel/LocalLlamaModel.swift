public import HybridCore
public import HybridTransport
import HybridConfig
import HybridProviders

/// The embedded local model: a llama.cpp `llama-server` child process on 127.0.0.1 behind the OpenAI-compatible
/// adapter.
///
/// The server starts on the first request (or `prepare()`), is shared by every model value with the same
/// configuration, and is killed when the process exits. When the binary or weights are missing, `availability()`
/// says so with the command that installs them, and requests fail with `.unavailable` instead of trying to start.
public struct LocalLlamaModel: LanguageModel {
    public let id: String
    public let displayName: String
    public let tier: ModelTier
    public let capabilities: ModelCapabilities
    private let installation: Result<LocalModelInstallation, UnavailabilityReason>
    private let server: LlamaServerProcess?
    private let transport: any HTTPTransport
    private let timeouts: HTTPTimeouts

    /// - Parameters:
    ///   - installation: where llama-server and the GGUF are, usually `LocalModelInstallation.discover()`.
    ///   - contextSize: the server's `-c`; also the advertised context window.
    public init(
        id: String,
        displayName: String? = nil,
        tier: ModelTier = .onDevice,
        installation: Result<LocalModelInstallation, UnavailabilityReason>,
        contextSize: Int = 4096,
        maxOutputTokens: Int? = nil,
        transport: any HTTPTransport,
        timeouts: HTTPTimeouts = HTTPTimeouts(connect: .seconds(5), firstByte: nil, total: .seconds(300))
    ) {
        self.id = id
        self.displayName = displayName ?? id
        self.tier = tier
        self.capabilities = ModelCapabilities(
            streaming: true, structuredOutput: true, contextWindow: contextSize, maxOutputTokens: maxOutputTokens)
        self.installation = installation
        self.transport = transport
        self.timeouts = timeouts
        if case .success(let found) = installation {
            server = LlamaServerProcess.shared(
                LlamaServerProcess.Configuration(installation: found, contextSize: contextSize), transport: transport)
        } else {
            server = nil
        }
    }

    /// Unavailable when the binary or weights are missing, or when the server died or never became ready (with
    /// the signal, the remedy and the log's last lines); otherwise available, which for a server not started yet
    /// means "installed": it starts on the first request. ``prepare()`` proves it answers.
    public func availability() async -> ModelAvailability {
        switch installation {
        case .failure(let reason): return .unavailable(reason)
        case .success:
            if let reason = await server?.unavailability() { return .unavailable(reason) }
            return .available
        }
    }

    /// Whether the server is running now, without starting it: false for "installed, not started".
    public var isRunning: Bool {
        get async { await server?.processIdentifier != nil }
    }

    /// Starts the server and warms it with a one-token request, so neither start-up nor the first (cold) request's
    /// cost is charged to a caller's request. Only the first `prepare` after a start sends the warm-up.
    ///
    /// A server that dies on that request (a build the CPU cannot run may load the weights and die on the first
    /// computation) fails `prepare` with the signal and the remedy, and stays unavailable until `stop()`.
    public func prepare() async throws(GenerationError) {
        let model = try await adapter()
        guard await server?.takeColdFlag() == true else { return }
        do {
            _ = try await model.generate(Self.warmUpRequest)
        } catch {
            if let reason = await server?.unavailability() { throw .unavailable(model: id, reason: reason) }
            throw error
        }
    }

    /// The smallest request that makes llama.cpp load the weights into memory and build its compute graph.
    static let warmUpRequest = GenerationRequest(messages: [.user("Hi")], options: GenerationOptions(maxOutputTokens: 1))

    /// The running server, for callers that must stop it early (tests, `hybrid` on exit).
    public var process: LlamaServerProcess? { server }

    public func generate(_ request: GenerationRequest) async throws(GenerationError) -> GenerationResponse {
        let model = try await adapter()
        let cold = await server?.takeColdFlag() ?? false
        do {
            var response = try await model.generate(request)
            response.coldStart = cold
            return response
        } catch {
            throw await explained(error)
        }
    }

    /// A request's error, or the server's death when it died under the request (a reset connection says less).
    private func explained(_ error: GenerationError) async -> GenerationError {
        guard error.kind != .cancelled, let reason = await server?.unavailability() else { return error }
        return .unavailable(model: id, reason: reason)
    }

    public func stream(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream<GenerationEvent, any Error>.makeStream()
        let task = Task {
            do {
                let model = try await adapter()
                let cold = await server?.takeColdFlag() ?? false
                for try await event in model.stream(request) {
                    if case .completed(var response) = event {
                        response.coldStart = cold
                        continuation.yield(.completed(response))
                    } else {
                        continuation.yield(event)
                    }
                }
                continuation.finish()
            } catch let error as GenerationError {
                continuation.finish(throwing: await explained(error))
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func adapter() async throws(GenerationError) -> HTTPLanguageModel {
        guard let server else {
            if case .failure(let reason) = installation { throw .unavailable(model: id, reason: reason) }
            throw .unavailable(model: id, reason: .notInstalled(what: "llama-server", fix: LocalModelInstallation.fixCommand))
        }
        let base = try await server.start()
        let config = ModelConfig(
            kind: .llamaCpp, baseURL: base, model: "local", tier: tier, pricing: ModelPricing(inputPerMillion: 0, outputPerMillion: 0),
            contextWindow: capabilities.contextWindow, maxOutputTokens: capabilities.maxOutputTokens,
            capabilities: .init(structuredOutput: capabilities.structuredOutput, streaming: capabilities.streaming),
            displayName: displayName)
        return HTTPLanguageModel(
            id: id, config: config, settings: HTTPWireSettings(timeouts: timeouts), transport: transport)
    }
}
