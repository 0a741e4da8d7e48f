import Foundation
@testable import HybridCore
@testable import HybridTesting
@testable import HybridValidation

/// Wire fixtures for the Gemini API adapter.
///
/// Shapes follow:
/// - Gemini API reference, "Generating content" (https://ai.google.dev/api/generate-content):
///   `GenerateContentResponse` with `candidates[].content.parts[].text`, `finishReason` (`STOP`, `MAX_TOKENS`,
///   `SAFETY`, …), `promptFeedback.blockReason`, `usageMetadata` (`promptTokenCount`, `candidatesTokenCount`,
///   `cachedContentTokenCount`, `thoughtsTokenCount`, `totalTokenCount`) and `modelVersion`;
///   `streamGenerateContent?alt=sse` sends each chunk as an SSE `data:` line, every chunk may carry
///   `usageMetadata`, and the last one has the totals. Thought-summary parts carry `"thought": true`.
/// - "API keys" (https://ai.google.dev/gemini-api/docs/api-key): the key is sent in the `x-goog-api-key` header.
/// - "Structured output" (https://ai.google.dev/gemini-api/docs/structured-output): `generationConfig` with
///   `responseMimeType: "application/json"` and `responseSchema` (OpenAPI subset, upper-case types).
/// - "Troubleshooting" / error codes (https://ai.google.dev/gemini-api/docs/troubleshooting): 400
///   `INVALID_ARGUMENT`, 429 `RESOURCE_EXHAUSTED`, 500 `INTERNAL`, 503 `UNAVAILABLE`, in the Google error object
///   `{"error": {"code", "message", "status", "details"}}`. The `RESOURCE_EXHAUSTED` details (`QuotaFailure`
///   violations with `quotaId` such as `GenerateRequestsPerDayPerProjectPerModel-FreeTier`, `RetryInfo.retryDelay`)
///   are as the API returned them in google-gemini/gemini-cli#8437; the token-count message `The input token count
///   (3475108) exceeds the maximum number of tokens allowed (1048576).` is verbatim from google-gemini/gemini-cli#4231;
///   the invalid-key body (`API_KEY_INVALID` in an `ErrorInfo`) is the API's documented `ErrorInfo` shape.
enum GeminiWireFixtures {
    static let apiKey = "AIzaSyHYBRIDTEST-gemini-0123456789abcdef"
    static let apiKeyVariable = "HYBRID_TEST_GEMINI_KEY"
    static let jsonHeaders: [(String, String)] = [("Content-Type", "application/json; charset=UTF-8")]
    static let sseHeaders: [(String, String)] = [("Content-Type", "text/event-stream")]

    /// The API separates SSE events with CRLF pairs.
    static func sse(_ payloads: [String]) -> String {
        payloads.map { "data: \($0)\r\n\r\n" }.joined()
    }

    static func textChunk(_ text: String, extra: String = "") -> String {
        let escaped = String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
        return #"{"candidates": [{"content": {"parts": [{"text": "# + escaped + #"}],"role": "model"},"index": 0"# + extra + "}]"
    }

    static let response = WireFixture(
        "gemini-generate-content", headers: jsonHeaders,
        body: #"""
            {
              "candidates": [
                {
                  "content": {"parts": [{"text": "The capital of France is Paris."}], "role": "model"},
                  "finishReason": "STOP",
                  "avgLogprobs": -0.0123,
                  "index": 0
                }
              ],
              "usageMetadata": {
                "promptTokenCount": 1050,
                "candidatesTokenCount": 7,
                "totalTokenCount": 1089,
                "cachedContentTokenCount": 1024,
                "thoughtsTokenCount": 32,
                "promptTokensDetails": [{"modality": "TEXT", "tokenCount": 1050}]
              },
              "modelVersion": "gemini-2.5-flash",
              "responseId": "Il0taoSYJ5Cez7IP_eKU2A0"
            }
            """#
    )

    static let streamDeltas = ["Hello", ", wörld", " 👋", "!"]
    static let stream = WireFixture(
        "gemini-stream", headers: sseHeaders,
        body: sse([
            #"{"candidates": [{"content": {"parts": [{"text": "The user greets me.", "thought": true}],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 9,"totalTokenCount": 12,"thoughtsTokenCount": 3},"modelVersion": "gemini-2.5-flash"}"#,
            textChunk("Hello") + #","usageMetadata": {"promptTokenCount": 9,"candidatesTokenCount": 1,"totalTokenCount": 13,"thoughtsTokenCount": 3},"modelVersion": "gemini-2.5-flash"}"#,
            textChunk(", wörld") + #","usageMetadata": {"promptTokenCount": 9,"candidatesTokenCount": 4,"totalTokenCount": 16,"thoughtsTokenCount": 3},"modelVersion": "gemini-2.5-flash"}"#,
            textChunk(" 👋") + #","usageMetadata": {"promptTokenCount": 9,"candidatesTokenCount": 6,"totalTokenCount": 18,"thoughtsTokenCount": 3},"modelVersion": "gemini-2.5-flash"}"#,
            textChunk("!", extra: #","finishReason": "STOP""#) + #","usageMetadata": {"promptTokenCount": 9,"candidatesTokenCount": 7,"totalTokenCount": 19,"thoughtsTokenCount": 3},"modelVersion": "gemini-2.5-flash"}"#,
        ])
    )

    static let streamHead = WireFixture(
        "gemini-stream-head", headers: sseHeaders,
        body: sse([textChunk("Hello") + #","modelVersion": "gemini-2.5-flash"}"#])
    )

    static let structured = WireFixture(
        "gemini-structured", headers: jsonHeaders,
        body: #"{"candidates": [{"content": {"parts": [{"text": "{\"name\": \"Ada Lovelace\", \"company\": \"Analytical Engines Ltd\"}"}],"role": "model"},"finishReason": "STOP","index": 0}],"usageMetadata": {"promptTokenCount": 30,"candidatesTokenCount": 14,"totalTokenCount": 44},"modelVersion": "gemini-2.5-flash"}"#
    )

    static let structuredStream = WireFixture(
        "gemini-structured-stream", headers: sseHeaders,
        body: sse([
            textChunk(#"{"name": "Ada"#) + #","usageMetadata": {"promptTokenCount": 30,"candidatesTokenCount": 4,"totalTokenCount": 34}}"#,
            textChunk(#" Lovelace", "company": "Analytical Engines Ltd"}"#, extra: #","finishReason": "STOP""#)
                + #","usageMetadata": {"promptTokenCount": 30,"candidatesTokenCount": 14,"totalTokenCount": 44}}"#,
        ])
    )

    // MARK: Errors

    static let perMinuteQuota = WireFixture(
        "gemini-429-per-minute", status: 429, headers: jsonHeaders,
        body: #"{"error": {"code": 429, "message": "You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.", "status": "RESOURCE_EXHAUSTED", "details": [{"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": [{"quotaMetric": "generativelanguage.googleapis.com/generate_content_free_tier_requests", "quotaId": "GenerateRequestsPerMinutePerProjectPerModel-FreeTier", "quotaDimensions": {"location": "global", "model": "gemini-2.5-flash"}, "quotaValue": "10"}]}, {"@type": "type.googleapis.com/google.rpc.Help", "links": [{"description": "Learn more about Gemini API quotas", "url": "https://ai.google.dev/gemini-api/docs/rate-limits"}]}, {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "19s"}]}}"#
    )
    static let perDayQuota = WireFixture(
        "gemini-429-per-day", status: 429, headers: jsonHeaders,
        body: #"{"error": {"code": 429, "message": "You exceeded your current quota, please check your plan and billing details.", "status": "RESOURCE_EXHAUSTED", "details": [{"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": [{"quotaMetric": "generativelanguage.googleapis.com/generate_content_free_tier_requests", "quotaId": "GenerateRequestsPerDayPerProjectPerModel-FreeTier", "quotaDimensions": {"model": "gemini-2.5-flash", "location": "global"}, "quotaValue": "250"}]}, {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "41s"}]}}"#
    )
    static let tokenCountExceeded = WireFixture(
        "gemini-400-token-count", status: 400, headers: jsonHeaders,
        body: #"{"error": {"code": 400, "message": "The input token count (3475108) exceeds the maximum number of tokens allowed (1048576).", "status": "INVALID_ARGUMENT"}}"#
    )
    static let invalidKey = WireFixture(
        "gemini-400-api-key-invalid", status: 400, headers: jsonHeaders,
        body: #"{"error": {"code": 400, "message": "API key not valid. Please pass a valid API key.", "status": "INVALID_ARGUMENT", "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID", "domain": "googleapis.com", "metadata": {"service": "generativelanguage.googleapis.com"}}]}}"#
    )
    static let badArgumentEchoingKey = WireFixture(
        "gemini-400-echoes-key", status: 400, headers: jsonHeaders,
        body: #"{"error": {"code": 400, "message": "Invalid value at 'generation_config.temperature' sent with key AIzaSyHYBRIDTEST-gemini-0123456789abcdef", "status": "INVALID_ARGUMENT"}}"#
    )
    static let overloaded = WireFixture(
        "gemini-503-unavailable", status: 503, headers: jsonHeaders,
        body: #"{"error": {"code": 503, "message": "The model is overloaded. Please try again later.", "status": "UNAVAILABLE"}}"#
    )
    static let internalError = WireFixture(
        "gemini-500-internal", status: 500, headers: jsonHeaders,
        body: #"{"error": {"code": 500, "message": "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting", "status": "INTERNAL"}}"#
    )
    static let safetyFinish = WireFixture(
        "gemini-finish-safety", headers: jsonHeaders,
        body: #"{"candidates": [{"finishReason": "SAFETY","index": 0,"safetyRatings": [{"category": "HARM_CATEGORY_DANGEROUS_CONTENT","probability": "HIGH","blocked": true}]}],"usageMetadata": {"promptTokenCount": 12,"totalTokenCount": 12},"modelVersion": "gemini-2.5-flash"}"#
    )
    static let promptBlocked = WireFixture(
        "gemini-prompt-blocked", headers: jsonHeaders,
        body: #"{"promptFeedback": {"blockReason": "SAFETY","safetyRatings": [{"category": "HARM_CATEGORY_HARASSMENT","probability": "HIGH"}]},"usageMetadata": {"promptTokenCount": 8,"totalTokenCount": 8},"modelVersion": "gemini-2.5-flash"}"#
    )
    static let safetyMidStream = WireFixture(
        "gemini-stream-safety", headers: sseHeaders,
        body: sse([
            textChunk("Here is how") + "}",
            #"{"candidates": [{"content": {"parts": [{"text": ""}],"role": "model"},"finishReason": "SAFETY","index": 0}],"usageMetadata": {"promptTokenCount": 9,"candidatesTokenCount": 3,"totalTokenCount": 12}}"#,
        ])
    )
}
