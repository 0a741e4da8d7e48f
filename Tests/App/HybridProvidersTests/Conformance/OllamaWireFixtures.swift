import Foundation
@testable import HybridCore
@testable import HybridTesting
@testable import HybridValidation

/// Wire fixtures for Ollama's native chat API.
///
/// Shapes follow Ollama's API documentation (ollama/ollama, docs/api.md, "Generate a chat completion"): a stream
/// of JSON objects, one per line (`application/x-ndjson`), each `{"model", "created_at", "message": {"role",
/// "content"}, "done": false}`, and a final object with `"done": true`, `done_reason`, `total_duration`,
/// `load_duration`, `prompt_eval_count`, `prompt_eval_duration`, `eval_count`, `eval_duration` ("All durations
/// are returned in nanoseconds"; tokens per second = `eval_count / eval_duration * 10^9`); `stream: false` returns
/// that final object with the whole `message`; structured outputs pass a JSON schema as `format`; options such
/// as `num_ctx`, `num_predict`, `temperature`, `seed` go in `options`. The non-streaming body below is the docs'
/// "Chat request (Reproducible outputs)" response. Errors are `{"error": "…"}` with an HTTP status, also as a
/// line inside a stream (docs/api.md, "Errors"; the 404 text is what `ollama` answers for a model that was never
/// pulled).
enum OllamaWireFixtures {
    static let apiKey = "ollama-HYBRIDTEST-bearer-secret-42"
    static let apiKeyVariable = "HYBRID_TEST_OLLAMA_KEY"
    static let jsonHeaders: [(String, String)] = [("Content-Type", "application/json; charset=utf-8")]
    static let ndjsonHeaders: [(String, String)] = [("Content-Type", "application/x-ndjson")]

    static func ndjson(_ lines: [String]) -> String {
        lines.map { $0 + "\n" }.joined()
    }

    static func line(_ content: String) -> String {
        let escaped = String(decoding: try! JSONEncoder().encode(content), as: UTF8.self)
        return #"{"model":"llama3.2","created_at":"2023-08-04T08:52:19.385406455-07:00","message":{"role":"assistant","content":"# + escaped + #"},"done":false}"#
    }

    static let response = WireFixture(
        "ollama-chat", headers: jsonHeaders,
        body: #"""
            {
              "model": "llama3.2",
              "created_at": "2023-12-12T14:13:43.416799Z",
              "message": {
                "role": "assistant",
                "content": "Hello! How are you today?"
              },
              "done_reason": "stop",
              "done": true,
              "total_duration": 5191566416,
              "load_duration": 2154458,
              "prompt_eval_count": 26,
              "prompt_eval_duration": 383809000,
              "eval_count": 298,
              "eval_duration": 4799921000
            }
            """#
    )

    static let streamDeltas = ["The", " sky", " is", " blüe", " 🌤."]
    static let stream = WireFixture(
        "ollama-stream", headers: ndjsonHeaders,
        body: ndjson(
            streamDeltas.map(line) + [
                #"{"model":"llama3.2","created_at":"2023-08-04T19:22:45.499127Z","message":{"role":"assistant","content":""},"done_reason":"stop","done":true,"total_duration":8113331500,"load_duration":6396458,"prompt_eval_count":61,"prompt_eval_duration":398801000,"eval_count":468,"eval_duration":7701267000}"#
            ])
    )

    static let streamHead = WireFixture("ollama-stream-head", headers: ndjsonHeaders, body: ndjson([line("The")]))

    static let structured = WireFixture(
        "ollama-structured", headers: jsonHeaders,
        body: #"{"model":"llama3.1","created_at":"2024-12-06T00:46:58.265747Z","message":{"role":"assistant","content":"{\"name\": \"Ada Lovelace\", \"company\": \"Analytical Engines Ltd\"}"},"done_reason":"stop","done":true,"total_duration":2254970291,"load_duration":574751416,"prompt_eval_count":34,"prompt_eval_duration":1502000000,"eval_count":16,"eval_duration":175000000}"#
    )

    static let structuredStream = WireFixture(
        "ollama-structured-stream", headers: ndjsonHeaders,
        body: ndjson([
            line(#"{"name": "Ada"#), line(#" Lovelace", "company": "#), line(#""Analytical Engines Ltd"}"#),
            #"{"model":"llama3.1","created_at":"2024-12-06T00:46:58.265747Z","message":{"role":"assistant","content":""},"done_reason":"stop","done":true,"prompt_eval_count":34,"eval_count":16,"eval_duration":175000000}"#,
        ])
    )

    /// The answer to a prompt far longer than `num_ctx`: Ollama evaluated only the window and says nothing else.
    static let silentlyTruncated = WireFixture(
        "ollama-silent-truncation", headers: jsonHeaders,
        body: #"{"model":"llama3.2","created_at":"2024-12-06T00:46:58.265747Z","message":{"role":"assistant","content":"Sure, here is a summary."},"done_reason":"stop","done":true,"total_duration":2254970291,"load_duration":574751416,"prompt_eval_count":2048,"prompt_eval_duration":1502000000,"eval_count":7,"eval_duration":175000000}"#
    )

    // MARK: Errors

    static let modelNotFound = WireFixture(
        "ollama-404-model-not-found", status: 404, headers: jsonHeaders,
        body: #"{"error":"model \"llama3.2\" not found, try pulling it first"}"#
    )
    static let badRequest = WireFixture(
        "ollama-400-bad-request", status: 400, headers: jsonHeaders,
        body: #"{"error":"json: cannot unmarshal string into Go struct field ChatRequest.messages of type api.Message"}"#
    )
    static let runnerCrashed = WireFixture(
        "ollama-500-runner", status: 500, headers: jsonHeaders,
        body: #"{"error":"llama runner process has terminated: signal: killed"}"#
    )
    static let unauthorizedEchoingKey = WireFixture(
        "ollama-401-echoes-key", status: 401, headers: jsonHeaders,
        body: #"{"error":"unauthorized: bearer ollama-HYBRIDTEST-bearer-secret-42 is not valid"}"#
    )
    static let midStreamError = WireFixture(
        "ollama-mid-stream-error", headers: ndjsonHeaders,
        body: ndjson([line("Partial"), #"{"error":"an error was encountered while running the model: unexpected EOF"}"#])
    )
    static let truncatedStream = WireFixture(
        "ollama-stream-without-done", headers: ndjsonHeaders, body: ndjson([line("Cut"), line(" off")])
    )
}
