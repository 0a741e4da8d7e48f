/// A Gemini model behind the Gemini API's `generateContent` and `streamGenerateContent?alt=sse`.
///
/// Behaviour callers can rely on, beyond what every `HTTPLanguageModel` shares (timing, deadlines, missing keys):
/// - The key goes in the `x-goog-api-key` header, never in the `?key=` query parameter the API also accepts:
///   URLs are copied into access logs, proxy logs, error messages and crash reports, while headers stay inside
///   the transport. (`URLRedaction` strips queries as a second line of defence, but the key is never there.)
/// - Instructions become `systemInstruction`; assistant turns use the role `model`; options become
///   `generationConfig` (`maxOutputTokens`, `temperature`, `topP`, `seed`; `.greedy` sends temperature 0).
/// - Structured output sets `responseMimeType: application/json` and `responseSchema`, converted to the API's
///   OpenAPI-subset schema (see `GeminiSchema`).
/// - Usage from `usageMetadata` of the last chunk: `promptTokens` = `promptTokenCount` (cached tokens included,
///   also reported as `cachedTokens`), `completionTokens` = `candidatesTokenCount` + `thoughtsTokenCount` (the
///   API counts thinking apart; both are billed as output), `reasoningTokens` = `thoughtsTokenCount`. Thought
///   parts are never part of the text.
/// - `finishReason` SAFETY (and the other content-policy reasons) and a blocked prompt (`promptFeedback.blockReason`)
///   are `.refusal`. A stream that ends without any `finishReason` is incomplete (`.serverError`).
/// - Errors: 429 `RESOURCE_EXHAUSTED` → `.rateLimited`, not retryable when a per-day quota was hit, else with the
///   `RetryInfo.retryDelay`; 400 `INVALID_ARGUMENT` about the input token count → `.contextWindowExceeded`;
///   an invalid key → `.authentication`; 503 → `.unavailable`.
/// - `availability()` never touches the network.
typealias GeminiModel = HTTPLanguageModel
