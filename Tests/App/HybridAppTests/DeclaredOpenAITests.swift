import Foundation
import HybridAI
import Testing

/// A reasoning model declared in Swift says which output-limit field it reads, and the config document written from
/// the declaration carries it, so a remote copy of that document routes to the model the same way.
@Suite("Declared OpenAI models: the output-limit field")
struct DeclaredOpenAITests {
    @Test func theDeclaredFieldReachesTheDocumentAndItsJSON() {
        let reasoning = ModelChoice.openAI(model: "o3", apiKey: .key("sk-test"), maxTokensField: .maxCompletionTokens)
        let chat = ModelChoice.openAI(apiKey: .key("sk-test"))
        let document = ModelChoice.document([reasoning, chat])
        #expect(document.models[reasoning.id]?.maxTokensField == .maxCompletionTokens)
        #expect(document.models[chat.id]?.maxTokensField == nil)
        let json = String(decoding: document.encodedJSON(), as: UTF8.self)
        #expect(json.contains(#""maxTokensField":"max_completion_tokens""#) || json.contains(#""maxTokensField" : "max_completion_tokens""#), "\(json)")
        #expect(!json.contains("sk-test"), "the key never lands in the document")
    }
}
