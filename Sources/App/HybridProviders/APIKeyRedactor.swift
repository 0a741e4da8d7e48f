/// Removes API keys from text before it reaches an error message or a log line.
///
/// Servers sometimes echo what they were sent, and OpenAI quotes a masked key on 401
/// (`Incorrect API key provided: sk-proj-****abcd`). The configured key is replaced wherever it appears, and
/// any token shaped like a provider key is dropped whole so that no fragment of a key (its prefix or last four
/// characters) survives: `sk-…` (OpenAI, and Anthropic's `sk-ant-…`) and Google's `AIza…` keys (Gemini).
struct APIKeyRedactor: Sendable {
    var key: String?

    func callAsFunction(_ text: String) -> String {
        var result = text
        if let key, !key.isEmpty {
            result = result.replacing(key, with: "[redacted]")
        }
        return result
            .replacing(/sk-[A-Za-z0-9_\-*.]+/, with: "[redacted]")
            .replacing(/AIza[A-Za-z0-9_\-*.]+/, with: "[redacted]")
    }
}
