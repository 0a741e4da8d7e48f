/// A Claude model behind the Anthropic Messages API (`POST /v1/messages`).
///
/// Behaviour callers can rely on, beyond what every `HTTPLanguageModel` shares (timing, deadlines, missing keys):
/// - Headers `x-api-key` and `anthropic-version`; instructions go in the top-level `system` field; `max_tokens`
///   is always sent (the request's `maxOutputTokens` capped by the config's `maxOutputTokens`, else the config's,
///   else 1,024). `.greedy` sampling sends `temperature: 0`; seeds are not supported and dropped.
/// - `stream` reads the SSE events `message_start` … `message_stop`; `ping` and unknown events are ignored, a
///   mid-stream `error` event fails the stream with the mapped error, and a stream without `message_stop` is an
///   incomplete response (`.serverError`).
/// - Structured output is a forced tool call: one tool named after `responseSchemaName` whose `input_schema` is
///   the request's schema, and `tool_choice` forcing it. The tool input (streamed as `input_json_delta`) becomes
///   the response text and `structured`; `finishReason` is `.toolCall`. The schema's root must be an object, as
///   the API requires of tool inputs.
/// - Usage: `promptTokens` is input + cache-creation + cache-read tokens, with the last two also reported as
///   `cacheCreationTokens` and `cachedTokens`; `completionTokens` is the cumulative `output_tokens` of the last
///   `message_delta`.
/// - Errors: 429 `rate_limit_error` → `.rateLimited` with `retry-after`; a spend-limit 429
///   (`enforced_spend_limit_reached`) or exhausted credit → `.rateLimited(retryable: false)`; 529
///   `overloaded_error` → `.unavailable`; 400 "prompt is too long" → `.contextWindowExceeded`; stop reason
///   `refusal` → `.refusal`. The API key never appears in an error or a log line.
/// - `availability()` never touches the network.
typealias AnthropicModel = HTTPLanguageModel
