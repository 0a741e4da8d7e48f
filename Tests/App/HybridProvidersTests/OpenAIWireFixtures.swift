import Foundation
@testable import HybridCore
@testable import HybridTesting
@testable import HybridTransport
@testable import HybridValidation
import Testing

/// Wire fixtures for the OpenAI-compatible Chat Completions adapter.
///
/// Shapes follow:
/// - OpenAI API reference, "Create chat completion" and "The chat completion chunk object"
///   (https://platform.openai.com/docs/api-reference/chat): `usage.prompt_tokens_details.cached_tokens`,
///   `usage.completion_tokens_details.reasoning_tokens`, `message.refusal`, and `stream_options.include_usage`:
///   "an additional chunk will be streamed before the `data: [DONE]` message. The `usage` field on this chunk
///   shows the token usage statistics for the entire request, and the `choices` field will always be an empty
///   array" (quoted from the OpenAPI spec's ChatCompletionStreamOptions, as mirrored on docs.rs/openai-struct).
/// - OpenAI error codes guide (https://platform.openai.com/docs/guides/error-codes): the `{"error": {"message",
///   "type", "param", "code"}}` object, 429 `rate_limit_exceeded` vs `insufficient_quota`, and the
///   `x-ratelimit-reset-requests` / `x-ratelimit-reset-tokens` headers ("1s", "6m0s").
/// - llama.cpp `tools/server` (ggml-org/llama.cpp, server-common.cpp `format_error_response` and
///   `format_oai_sse`, server-task.cpp `to_json_oaicompat_chat_stream`, server.cpp's loading middleware):
///   errors are `{"code", "message", "type"}` with type `exceed_context_size_error` (400, plus `n_prompt_tokens`
///   and `n_ctx`) or `unavailable_error` (503, message "Loading model"); SSE events are `data: <json>\n\n`;
///   mid-stream failures are sent as `data: {"error": {...}}`; the final chunk carries `timings`
///   (`prompt_n`, `prompt_ms`, `predicted_n`, `predicted_ms`, `predicted_per_second`).
enum OpenAIWireFixtures {
    /// The API key the tests put in the injected environment; no error description may contain it.
    static let apiKey = "sk-hybrid-SECRET-0123456789"
    static let apiKeyVariable = "HYBRID_TEST_OPENAI_KEY"

    static let jsonHeaders: [(String, String)] = [("Content-Type", "application/json")]
    static let sseHeaders: [(String, String)] = [("Content-Type", "text/event-stream; charset=utf-8")]

    /// SSE body from event payloads, framed as OpenAI and llama.cpp frame them.
    static func sse(_ payloads: [String]) -> String {
        payloads.map { "data: \($0)\n\n" }.joined()
    }

    // MARK: Non-streaming

    static let openAICompletion = WireFixture(
        "openai-completion", headers: jsonHeaders,
        body: #"""
            {
              "id": "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG",
              "object": "chat.completion",
              "created": 1741570283,
              "model": "gpt-4o-mini-2024-07-18",
              "choices": [
                {
                  "index": 0,
                  "message": {
                    "role": "assistant",
                    "content": "The capital of France is Paris.",
                    "refusal": null,
                    "annotations": []
                  },
                  "logprobs": null,
                  "finish_reason": "stop"
                }
              ],
              "usage": {
                "prompt_tokens": 1117,
                "completion_tokens": 46,
                "total_tokens": 1163,
                "prompt_tokens_details": {"cached_tokens": 1024, "audio_tokens": 0},
                "completion_tokens_details": {
                  "reasoning_tokens": 12,
                  "audio_tokens": 0,
                  "accepted_prediction_tokens": 0,
                  "rejected_prediction_tokens": 0
                }
              },
              "service_tier": "default",
              "system_fingerprint": "fp_06737a9306"
            }
            """#
    )

    static let llamaCppCompletion = WireFixture(
        "llamacpp-completion", headers: jsonHeaders,
        body: #"""
            {"choices":[{"finish_reason":"length","index":0,"message":{"role":"assistant","content":"Paris is the capital"}}],"created":1750000000,"model":"SmolLM2-135M-Instruct","system_fingerprint":"b5900-abc","object":"chat.completion","usage":{"completion_tokens":4,"prompt_tokens":31,"total_tokens":35,"prompt_tokens_details":{"cached_tokens":0}},"id":"chatcmpl-xyz","timings":{"prompt_n":31,"prompt_ms":85.2,"prompt_per_token_ms":2.748,"prompt_per_second":363.8,"predicted_n":4,"predicted_ms":33.1,"predicted_per_token_ms":8.275,"predicted_per_second":120.8}}
            """#
    )

    static let refusalCompletion = WireFixture(
        "openai-refusal", headers: jsonHeaders,
        body: #"""
            {"id":"chatcmpl-r","object":"chat.completion","created":1,"model":"gpt-4o-2024-08-06","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"I'm sorry, I cannot assist with that request."},"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":20,"completion_tokens":10,"total_tokens":30}}
            """#
    )

    /// A server that reports no usage at all (some proxies and older servers).
    static func completionWithoutUsage(content: String, finishReason: String = "stop") -> WireFixture {
        let escaped = String(decoding: try! JSONEncoder().encode(content), as: UTF8.self)
        return WireFixture(
            "completion-without-usage", headers: jsonHeaders,
            body: #"{"id":"c","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"# + escaped + #"},"finish_reason":"# + "\"\(finishReason)\"" + #"}]}"#
        )
    }

    // MARK: Streaming

    /// OpenAI stream with `include_usage`: role chunk, content chunks (with multi-byte UTF-8), finish chunk,
    /// usage chunk with empty `choices`, then `[DONE]`.
    static let openAIStreamDeltas = ["Hello", ", wörld", " 👋", "!"]
    static let openAIStream = WireFixture(
        "openai-stream", headers: sseHeaders,
        body: sse(
            [
                #"{"id":"chatcmpl-123","object":"chat.completion.chunk","created":1694268190,"model":"gpt-4o-mini-2024-07-18","system_fingerprint":"fp_44709d6fcb","choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}],"usage":null}"#
            ]
                + openAIStreamDeltas.map { delta in
                    let escaped = String(decoding: try! JSONEncoder().encode(delta), as: UTF8.self)
                    return #"{"id":"chatcmpl-123","object":"chat.completion.chunk","created":1694268190,"model":"gpt-4o-mini-2024-07-18","system_fingerprint":"fp_44709d6fcb","choices":[{"index":0,"delta":{"content":"#
                        + escaped + #"},"logprobs":null,"finish_reason":null}],"usage":null}"#
                }
                + [
                    #"{"id":"chatcmpl-123","object":"chat.completion.chunk","created":1694268190,"model":"gpt-4o-mini-2024-07-18","system_fingerprint":"fp_44709d6fcb","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}],"usage":null}"#,
                    #"{"id":"chatcmpl-123","object":"chat.completion.chunk","created":1694268190,"model":"gpt-4o-mini-2024-07-18","system_fingerprint":"fp_44709d6fcb","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":7,"total_tokens":16,"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}}"#,
                    "[DONE]",
                ]
        )
    )

    /// llama.cpp stream: role chunk with null content, content chunks, a final chunk with finish_reason,
    /// usage and `timings`, then `[DONE]`.
    static let llamaCppStreamDeltas = ["The", " sky", " is", " blue", "."]
    static let llamaCppStream = WireFixture(
        "llamacpp-stream", headers: sseHeaders,
        body: sse(
            [
                #"{"choices":[{"finish_reason":null,"index":0,"delta":{"role":"assistant","content":null}}],"created":1750000000,"id":"chatcmpl-ll","model":"SmolLM2-135M-Instruct","system_fingerprint":"b5900-abc","object":"chat.completion.chunk"}"#
            ]
                + llamaCppStreamDeltas.map { delta in
                    #"{"choices":[{"finish_reason":null,"index":0,"delta":{"content":""# + delta
                        + #""}}],"created":1750000000,"id":"chatcmpl-ll","model":"SmolLM2-135M-Instruct","system_fingerprint":"b5900-abc","object":"chat.completion.chunk"}"#
                }
                + [
                    #"{"choices":[{"finish_reason":"stop","index":0,"delta":{}}],"created":1750000000,"id":"chatcmpl-ll","model":"SmolLM2-135M-Instruct","system_fingerprint":"b5900-abc","object":"chat.completion.chunk","usage":{"completion_tokens":5,"prompt_tokens":28,"total_tokens":33},"timings":{"prompt_n":28,"prompt_ms":77.5,"prompt_per_token_ms":2.77,"prompt_per_second":361.3,"predicted_n":5,"predicted_ms":41.6,"predicted_per_token_ms":8.32,"predicted_per_second":120.2}}"#,
                    "[DONE]",
                ]
        )
    )

    /// llama.cpp failing mid-stream after one delta.
    static let midStreamError = WireFixture(
        "llamacpp-mid-stream-error", headers: sseHeaders,
        body: sse([
            #"{"choices":[{"finish_reason":null,"index":0,"delta":{"content":"Partial"}}],"created":1,"id":"c","model":"m","object":"chat.completion.chunk"}"#,
            #"{"error":{"code":500,"message":"slot was released while decoding","type":"server_error"}}"#,
        ])
    )

    // MARK: Errors

    static let openAIContextLength = WireFixture(
        "openai-400-context-length", status: 400, headers: jsonHeaders,
        body: #"{"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 130012 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}"#
    )
    static let llamaCppContextSize = WireFixture(
        "llamacpp-400-exceed-context-size", status: 400, headers: jsonHeaders,
        body: #"{"error":{"code":400,"message":"request (4476 tokens) exceeds the available context size (4096 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":4476,"n_ctx":4096}}"#
    )
    static let invalidParameter = WireFixture(
        "openai-400-invalid-type", status: 400, headers: jsonHeaders,
        body: #"{"error":{"message":"Invalid type for 'temperature': expected a decimal, but got a string instead.","type":"invalid_request_error","param":"temperature","code":"invalid_type"}}"#
    )
    static let modelNotFound = WireFixture(
        "openai-404-model-not-found", status: 404, headers: jsonHeaders,
        body: #"{"error":{"message":"The model `gpt-9` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}"#
    )
    static let unprocessable = WireFixture(
        "fastapi-422", status: 422, headers: jsonHeaders,
        body: #"{"detail":[{"type":"missing","loc":["body","messages"],"msg":"Field required"}]}"#
    )
    static let invalidAPIKey = WireFixture(
        "openai-401-invalid-key", status: 401, headers: jsonHeaders,
        body: #"{"error":{"message":"Incorrect API key provided: sk-hybri*************6789. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}"#
    )
    static let forbiddenEchoingKey = WireFixture(
        "proxy-403-echoes-key", status: 403, headers: jsonHeaders,
        body: #"{"error":"key sk-hybrid-SECRET-0123456789 may not call this model"}"#
    )
    static let rateLimitedRetryAfter = WireFixture(
        "openai-429-retry-after", status: 429, headers: jsonHeaders + [("Retry-After", "20")],
        body: #"{"error":{"message":"Rate limit reached for gpt-4o-mini in organization org-abc on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.","type":"requests","param":null,"code":"rate_limit_exceeded"}}"#
    )
    static let rateLimitedRetryAfterMs = WireFixture(
        "openai-429-retry-after-ms", status: 429, headers: jsonHeaders + [("retry-after-ms", "1500"), ("Retry-After", "2")],
        body: #"{"error":{"message":"Rate limit reached for requests","type":"requests","param":null,"code":"rate_limit_exceeded"}}"#
    )
    static let rateLimitedResetHeaders = WireFixture(
        "openai-429-reset-headers", status: 429,
        headers: jsonHeaders + [("x-ratelimit-reset-requests", "1s"), ("x-ratelimit-reset-tokens", "6m0s")],
        body: #"{"error":{"message":"Rate limit reached for gpt-4o-mini on tokens per min (TPM)","type":"tokens","param":null,"code":"rate_limit_exceeded"}}"#
    )
    static let insufficientQuota = WireFixture(
        "openai-429-insufficient-quota", status: 429, headers: jsonHeaders,
        body: #"{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}"#
    )
    static let loadingModel = WireFixture(
        "llamacpp-503-loading-model", status: 503, headers: jsonHeaders,
        body: #"{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}"#
    )
    static let internalError = WireFixture(
        "openai-500", status: 500, headers: jsonHeaders,
        body: #"{"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}"#
    )
    static let badGatewayEchoingKey = WireFixture(
        "proxy-502-html-echoes-key", status: 502, headers: [("Content-Type", "text/html")],
        body: "<html><body>Bad gateway while forwarding Authorization: Bearer sk-hybrid-SECRET-0123456789</body></html>"
    )
}
