/// A model served by Ollama's native `POST /api/chat` (for its OpenAI-compatible `/v1`, use
/// `OpenAICompatibleModel`).
///
/// Behaviour callers can rely on, beyond what every `HTTPLanguageModel` shares (timing, deadlines, missing keys):
/// - `availability()` is unavailable when a configured key is missing or no Ollama server answers
///   `GET /api/version` within a second: unlike a cloud API, an Ollama server on this machine is often simply not
///   running, and saying so up front beats a connection error on the first request.
/// - Streams are NDJSON: one JSON object per line, the last with `done: true`, `done_reason` and the counts.
///   Lines split across chunks are reassembled (`NDJSONLineParser`); a stream without `done: true` is incomplete.
/// - Usage is `prompt_eval_count` / `eval_count`; decode speed is `eval_count / eval_duration` (nanoseconds).
/// - Structured output sends the schema as `format`. Options go in `options` (`num_predict`, `temperature`,
///   `top_p`, `seed`, and `num_ctx` = `capabilities.contextWindow` unless `HTTPWireSettings.ollamaSendsContextWindow` is false).
/// - Ollama silently truncates a prompt longer than `num_ctx` and answers as if nothing happened. When the
///   prompt's estimated size (`TokenEstimator`, about four characters per token) exceeds the window and
///   `prompt_eval_count` came back at most the window and below 90 % of the estimate, the call fails with
///   `.contextWindowExceeded` instead of returning an answer to a prompt the model never fully saw. The estimate
///   is rough: prompts within about 10 % of the window may slip through either way.
/// - Errors: 404 "model … not found" → `.unavailable(.notInstalled)` with the `ollama pull` command; a
///   `{"error": …}` line mid-stream → `.serverError`.
typealias OllamaModel = HTTPLanguageModel
