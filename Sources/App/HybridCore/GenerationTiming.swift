/// How long a generation took, measured from the moment the request was handed to the transport.
public struct GenerationTiming: Sendable, Hashable, Codable {
    /// From sending the request to the first content token; nil when nothing was streamed or no text came.
    public var timeToFirstToken: Duration?
    /// From sending the request to the end of the response.
    public var total: Duration
    /// Completion tokens per second of decoding, from the provider's own timings when it reports them
    /// (llama.cpp `timings.predicted_per_second`), else completion tokens over (total − TTFT).
    public var decodeTokensPerSecond: Double?
    /// The server's own time for processing the prompt (llama.cpp `timings.prompt_ms`), when it reports one.
    /// Next to `total` it shows queueing: what the client waited beyond prompt plus generation was spent in line.
    public var serverPromptTime: Duration?
    /// The server's own time for generating the answer (llama.cpp `timings.predicted_ms`), when it reports one.
    public var serverGenerationTime: Duration?

    /// Creates a timing; pass nil `timeToFirstToken` when no content token was streamed.
    public init(
        timeToFirstToken: Duration?, total: Duration, decodeTokensPerSecond: Double? = nil,
        serverPromptTime: Duration? = nil, serverGenerationTime: Duration? = nil
    ) {
        self.timeToFirstToken = timeToFirstToken
        self.total = total
        self.decodeTokensPerSecond = decodeTokensPerSecond
        self.serverPromptTime = serverPromptTime
        self.serverGenerationTime = serverGenerationTime
    }
}

extension Duration {
    /// The duration in seconds as a Double.
    package var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }

    /// The duration in milliseconds as a Double.
    package var milliseconds: Double { seconds * 1000 }
}
