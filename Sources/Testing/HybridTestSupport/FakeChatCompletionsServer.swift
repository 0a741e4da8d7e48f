import Foundation
import Synchronization

/// A loopback server that speaks OpenAI Chat Completions (JSON, or SSE with a usage chunk when the request says
/// `"stream": true`, and JSON errors),
/// answering each request by a script keyed on the last user message.
///
/// For runner tests and benchmarks: deterministic latency and failures without a model. The wire format follows
/// OpenAI's "Create chat completion" streaming reference (`chat.completion.chunk` events, `data: [DONE]`).
package final class FakeChatCompletionsServer: Sendable {
    /// What to do for one request.
    package enum Behavior: Sendable {
        /// Stream `text` as two deltas, after waiting `delay`.
        case reply(String, delay: Duration = .zero)
        /// Answer with an HTTP error: status, OpenAI error body fields, extra headers.
        case fail(status: Int, type: String, code: String?, message: String, headers: [(name: String, value: String)] = [])
    }

    /// Decides the behaviour from the user message and how many times this message was seen before (0-based).
    package typealias Script = @Sendable (_ prompt: String, _ attempt: Int) -> Behavior

    private let server: LoopbackHTTPServer
    private let state = Counters()

    /// Shared with the server's handler, which outlives no one but must not capture `self` before init ends.
    private final class Counters: Sendable {
        let value = Mutex<(attempts: [String: Int], inFlight: Int, maxInFlight: Int, requests: Int)>(([:], 0, 0, 0))
        func withLock<T>(_ body: (inout (attempts: [String: Int], inFlight: Int, maxInFlight: Int, requests: Int)) -> T) -> T {
            value.withLock { body(&$0) }
        }
    }

    /// Starts listening on 127.0.0.1 on an OS-chosen port; call `stop()` when done.
    package init(script: @escaping Script) throws(LoopbackServerError) {
        let state = self.state
        self.server = try LoopbackHTTPServer(recordRequests: false) { request in
            let prompt = Self.lastUserMessage(request.body)
            let streaming = Self.wantsStream(request.body)
            let attempt = state.withLock { s -> Int in
                let n = s.attempts[prompt, default: 0]
                s.attempts[prompt] = n + 1
                s.inFlight += 1
                s.requests += 1
                s.maxInFlight = max(s.maxInFlight, s.inFlight)
                return n
            }
            let behavior = script(prompt, attempt)
            if case .reply(_, let delay) = behavior, delay > .zero {
                try? await Task.sleep(for: delay)
            }
            state.withLock { $0.inFlight -= 1 }
            return Self.response(behavior, streaming: streaming)
        }
    }

    /// `http://127.0.0.1:PORT/v1`, the base URL an OpenAI-compatible model config points at.
    package var baseURL: String { server.baseURL + "/v1" }

    /// The most requests that were being handled at once.
    package var maxConcurrentRequests: Int { state.withLock { $0.maxInFlight } }

    /// Requests received so far.
    package var requestCount: Int { state.withLock { $0.requests } }

    /// Stops listening and closes every client connection; never blocks.
    package func stop() { server.stop() }

    static func lastUserMessage(_ body: Data) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let messages = object["messages"] as? [[String: Any]],
              let last = messages.last(where: { $0["role"] as? String == "user" }),
              let content = last["content"] as? String
        else { return "" }
        return content
    }

    static func wantsStream(_ body: Data) -> Bool {
        (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["stream"] as? Bool ?? false
    }

    static func response(_ behavior: Behavior, streaming: Bool) -> ScriptedResponse {
        switch behavior {
        case .reply(let text, _) where !streaming:
            let completion = max(1, text.split(separator: " ").count)
            return .json(
                "{\"id\":\"chatcmpl-fake\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"fake\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\(Self.quote(text))},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":20,\"completion_tokens\":\(completion),\"total_tokens\":\(20 + completion)}}")
        case .reply(let text, _):
            let half = text.index(text.startIndex, offsetBy: text.count / 2)
            let chunks = [String(text[..<half]), String(text[half...])]
            var events = chunks.map { piece in
                "data: {\"id\":\"chatcmpl-fake\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"fake\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\(Self.quote(piece))},\"finish_reason\":null}]}\n\n"
            }
            events.append("data: {\"id\":\"chatcmpl-fake\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"fake\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n")
            let completion = max(1, text.split(separator: " ").count)
            events.append("data: {\"id\":\"chatcmpl-fake\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"fake\",\"choices\":[],\"usage\":{\"prompt_tokens\":20,\"completion_tokens\":\(completion),\"total_tokens\":\(20 + completion)}}\n\n")
            events.append("data: [DONE]\n\n")
            return .sse(events: events)
        case .fail(let status, let type, let code, let message, let headers):
            let codeJSON = code.map(Self.quote) ?? "null"
            return .json(
                status: status,
                "{\"error\":{\"message\":\(Self.quote(message)),\"type\":\(Self.quote(type)),\"param\":null,\"code\":\(codeJSON)}}",
                headers: headers)
        }
    }

    package static func quote(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
        let array = String(decoding: data, as: UTF8.self)
        return String(array.dropFirst().dropLast())
    }
}
