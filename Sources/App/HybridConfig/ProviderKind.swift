/// Which API a model speaks; decides which adapter the harness builds for it.
public enum ProviderKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// OpenAI's Chat Completions API or any server that copies it (vLLM, llama.cpp's own `/v1`).
    case openAICompatible = "openai-compatible"
    /// A llama.cpp `llama-server` on loopback that the harness starts and stops.
    case llamaCpp = "llama-cpp"
    case anthropic
    case gemini
    case ollama
    /// Apple's on-device system model (FoundationModels framework; Apple platforms only).
    case appleFoundationModels = "apple-foundation-models"
    /// Apple's server model on Private Cloud Compute (FoundationModels, 27 SDK; Apple platforms only).
    case applePrivateCloudCompute = "apple-private-cloud-compute"

    public init(from decoder: any Decoder) throws {
        let raw = try decoder.singleValueContainer().decode(String.self)
        guard let kind = ProviderKind(rawValue: raw) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "unknown provider kind \"\(raw)\"; expected one of "
                        + ProviderKind.allCases.map(\.rawValue).joined(separator: ", ")
                )
            )
        }
        self = kind
    }
}
