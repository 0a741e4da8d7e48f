import Foundation
@testable import HybridConfig
@testable import HybridCore
@testable import HybridRouter
@testable import HybridTestSupport
@testable import HybridValidation
import Testing

/// A config that does not validate never reaches a router, even one built in code without the validator (the
/// errors an app reads are in HybridAppTests' `AppErrorTests`).
@Suite struct AppFacingErrorTests {
    /// An override naming `older-phone` where the condition is `older-phones`, and a misspelt test (`oneof`), as a
    /// developer building a document in code might ship it (documents are not `Decodable`: only the validator reads
    /// JSON).
    static let misspelt = #"""
        {"version": 3,
         "models": {"local": {"kind": "openai-compatible", "baseURL": "http://127.0.0.1:9/v1", "model": "m", "tier": "on-device",
                              "pricing": {"inputPerMillion": 0, "outputPerMillion": 0}, "contextWindow": 4096,
                              "capabilities": {"structuredOutput": true, "streaming": true}}},
         "conditions": [{"name": "older-phones", "labels": {"deviceClass": {"oneof": ["phone-2019"]}}}],
         "features": {"summarize": {"variants": {"v": {"template": "{{input}}"}}, "defaultVariant": "v",
                                    "priority": ["local"], "privacy": "open",
                                    "overrides": {"older-phone": {"priority": ["local"]}}}}}
        """#

    @Test func aDocumentThatDoesNotValidateIsRefusedAtTheInitialiserWithEveryPath() throws {
        // Reading alone accepts it: the unknown key is dropped and the override's name is not checked.
        let decoded = try ConfigValidator.decode(Data(Self.misspelt.utf8))
        #expect(throws: ConfigError.self) { _ = try Router(config: .fixed(decoded), models: .models([:]), installId: "i") }
        do {
            _ = try Router(config: .fixed(decoded), installId: "i")
            Issue.record("the router accepted a document that does not validate")
        } catch {
            let paths = error.issues.map(\.path)
            #expect(paths.contains("conditions[0].labels.deviceClass"), "\(paths)")
            #expect(paths.contains("features.summarize.overrides.older-phone"), "\(paths)")
            // The user reads a sentence; the developer's log gets every path.
            #expect(error.localizedDescription == "The app's settings could not be loaded.")
            #expect(error.description.contains("older-phone"))
        }
    }
}
