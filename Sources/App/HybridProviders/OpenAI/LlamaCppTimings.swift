import HybridCore

/// llama.cpp's `timings` object, sent on non-streaming responses and on the last stream chunk.
///
/// Times are server-side milliseconds: `prompt_ms` covers prompt processing of `prompt_n` tokens (cached
/// tokens excluded), `predicted_ms` the decoding of `predicted_n` tokens.
struct LlamaCppTimings: JSONMemberObject, Equatable {
    var promptN: Int?
    var promptMs: Double?
    var predictedN: Int?
    var predictedMs: Double?
    var predictedPerSecond: Double?

    static let jsonMembers = JSONMembers<LlamaCppTimings>([
        .count("prompt_n", \.promptN), .member("prompt_ms", \.promptMs), .count("predicted_n", \.predictedN),
        .member("predicted_ms", \.predictedMs), .member("predicted_per_second", \.predictedPerSecond),
    ])
    static var jsonPlaceholder: LlamaCppTimings { LlamaCppTimings() }

    /// Decode speed as the server measured it: `predicted_per_second`, else `predicted_n / predicted_ms`.
    var decodeTokensPerSecond: Double? {
        if let predictedPerSecond, predictedPerSecond.isFinite, predictedPerSecond > 0 { return predictedPerSecond }
        if let predictedN, let predictedMs, predictedMs > 0 { return Double(predictedN) / (predictedMs / 1000) }
        return nil
    }

    /// Records the server-side times in `result`.
    func record(into result: inout WireResult) {
        result.decodeTokensPerSecond = decodeTokensPerSecond
        if let promptMs, promptMs.isFinite, promptMs >= 0 { result.serverPromptTime = .microseconds(Int64(promptMs * 1000)) }
        if let predictedMs, predictedMs.isFinite, predictedMs >= 0 {
            result.serverGenerationTime = .microseconds(Int64(predictedMs * 1000))
        }
    }
}
