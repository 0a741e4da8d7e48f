import Foundation
import HybridCurl
import HybridLocalModel
import HybridLocalModelTestSupport
import Testing

/// The guide's blocks marked `<!-- snippet: runs -->` run here, not only compile: against the real SmolLM2 served
/// by llama-server as the on-device model, and the same server as the "cloud" (a real server speaking OpenAI's
/// `/v1/chat/completions`), found through the variables the snippets read. Serial (`SERIAL_TESTS`): it sets
/// process-wide environment variables and shares the local model server.
@Suite(.serialized) struct DocSnippetRunTests {
    @Test func theGuidesRunnableSnippetsRunAgainstTheLocalModel() async throws {
        guard let installation = LocalModelRequirement.installed() else { return }
        let server = LlamaServerProcess(
            configuration: .init(installation: installation, contextSize: 2048), transport: CurlTransport.shared)
        defer { Task { await server.stop() } }
        let base = try await server.start()
        setenv("LOCAL_MODEL_URL", base, 1)
        setenv("OPENAI_BASE_URL", base, 1)
        setenv("OPENAI_API_KEY", "loopback", 1)
        defer { for name in ["LOCAL_MODEL_URL", "OPENAI_BASE_URL", "OPENAI_API_KEY"] { unsetenv(name) } }
        #expect(!RunnableSnippets.all.isEmpty)
        for snippet in RunnableSnippets.all {
            do {
                try await snippet.run()
            } catch {
                Issue.record("\(snippet.place) threw: \(error)")
            }
        }
    }
}
