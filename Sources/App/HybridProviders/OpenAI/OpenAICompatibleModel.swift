/// A model behind an OpenAI-compatible Chat Completions endpoint: OpenAI, llama.cpp's `llama-server`,
/// vLLM, or Ollama's `/v1`.
///
/// Behaviour callers can rely on, beyond what every `HTTPLanguageModel` shares (timing, deadlines, missing keys):
/// - `generate` uses the non-streaming endpoint (`stream: false`); `stream` uses SSE with
///   `stream_options.include_usage`. A server that answers a streaming request with plain JSON is read as one
///   complete response whose text arrives as one delta.
/// - `decodeTokensPerSecond` and the server times come from llama.cpp's `timings` when sent. Its `prompt_ms` is
///   not used as a time to first token: it excludes queueing and network time, so it would not compare with
///   measured values.
/// - `availability()` never touches the network: probing a local server is the local-model manager's job.
typealias OpenAICompatibleModel = HTTPLanguageModel
