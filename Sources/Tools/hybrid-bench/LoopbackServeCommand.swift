import Foundation
import HybridTestSupport

/// `hybrid-bench serve-loopback [--delay-ms N] [--first-request-file PATH]`: runs the loopback server in its own process, so the benchmarked
/// client's CPU and memory figures do not include the server's. Prints the port on the first line of stdout, then
/// serves until stdin closes (the parent exited) or the process is killed.
///
/// It speaks OpenAI's Chat Completions format (https://platform.openai.com/docs/api-reference/chat): a request whose
/// body has `"stream":true` gets an SSE stream of `chat.completion.chunk` events ending with usage and
/// `data: [DONE]`; any other request gets one `chat.completion` object with usage. `--delay-ms` holds back the
/// status line, like a model thinking.
enum LoopbackServeCommand {
    /// The small JSON body every non-streaming request gets.
    static let body = #"{"id":"bench","object":"chat.completion","model":"bench","choices":[{"index":0,"message":{"role":"assistant","content":"The council closed the bridge."},"finish_reason":"stop"}],"usage":{"prompt_tokens":30,"completion_tokens":7,"total_tokens":37}}"#

    /// The events of a streamed answer, each written as its own chunk.
    static let events = [
        #"data: {"id":"bench","object":"chat.completion.chunk","model":"bench","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}"# + "\n\n",
        #"data: {"id":"bench","object":"chat.completion.chunk","model":"bench","choices":[{"index":0,"delta":{"content":"The council closed"},"finish_reason":null}]}"# + "\n\n",
        #"data: {"id":"bench","object":"chat.completion.chunk","model":"bench","choices":[{"index":0,"delta":{"content":" the bridge."},"finish_reason":null}]}"# + "\n\n",
        #"data: {"id":"bench","object":"chat.completion.chunk","model":"bench","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"# + "\n\n",
        #"data: {"id":"bench","object":"chat.completion.chunk","model":"bench","choices":[],"usage":{"prompt_tokens":30,"completion_tokens":7,"total_tokens":37}}"# + "\n\n",
        "data: [DONE]\n\n",
    ]

    static func run(_ arguments: BenchmarkArguments) async throws {
        let delayMs = arguments.int("delay-ms", default: 0)
        let firstRequestFile = arguments.string("first-request-file")
        let streamMarker = Array(#""stream":true"#.utf8)
        let server = try LoopbackHTTPServer.synchronous(recordRequests: false) { request in
            // The time the first request of a client run arrived (the client deletes the file before each run).
            if let firstRequestFile, access(firstRequestFile, F_OK) != 0 {
                try? String(Date().timeIntervalSince1970).write(toFile: firstRequestFile, atomically: true, encoding: .utf8)
            }
            let streaming = request.body.withUnsafeBytes { bytes in
                bytes.firstRange(of: streamMarker) != nil
            }
            var response = streaming ? ScriptedResponse.sse(events: events) : ScriptedResponse.json(body)
            if delayMs > 0 { response.headDelay = .milliseconds(delayMs) }
            return response
        }
        print(server.port)
        fflush(nil)  // all streams: the parent waits for this line
        // Blocking a pool thread is fine here: this process does nothing else.
        while let line = readLine(strippingNewline: false), !line.isEmpty {}
        server.stop()
    }
}
