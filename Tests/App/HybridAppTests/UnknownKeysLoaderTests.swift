import Foundation
import HybridAI
import Testing

/// An app that fetches a document with a key it does not know keeps its last good config (a misspelt `overides`
/// would otherwise silently drop its targeting), unless the document declares a newer `schemaVersion`: forward
/// compatibility is explicit. Through the public API only.
@Suite("ConfigLoader refuses unknown keys unless the document declares a newer schema version")
struct UnknownKeysLoaderTests {
    /// The app's shipped config: one declared model and its `respond` feature.
    static func shipped() throws -> ValidatedConfig {
        try ConfigValidator.validate(ModelChoice.document([.llamaServer()]))
    }

    /// The shipped config one version on, with `extra` inserted at the top level and a misspelt feature key.
    static func body(topLevel extra: String = "") throws -> Data {
        let document = try shipped().document
        var text = String(decoding: document.encodedJSON(), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"version\" : \(document.version)", with: "\(extra)\"version\" : \(document.version + 1)")
        text = text.replacingOccurrences(of: "\"defaultVariant\" : \"default\",", with: "\"defaultVariant\" : \"default\", \"overides\": {},")
        return Data(text.utf8)
    }

    @Test("a misspelt key: refused with its path, the config in force stays")
    func anUnknownKeyIsRefused() async throws {
        let loader = ConfigLoader(bundled: try Self.shipped(), sourceURL: nil, fetcher: nil)
        let before = await loader.current.config.version
        let resolution = await loader.offer(try Self.body(), source: "push")
        #expect(resolution.outcome == .rejected)
        #expect(resolution.config.version == before)
        let paths = resolution.reasonNewOneRejected?.issues.map(\.path) ?? []
        #expect(paths == ["features.respond.overides"], "\(String(describing: resolution.reasonNewOneRejected))")
    }

    @Test("a document for a newer schema version: its unknown keys are warnings and it is taken")
    func aNewerSchemaVersionIsTaken() async throws {
        let loader = ConfigLoader(bundled: try Self.shipped(), sourceURL: nil, fetcher: nil)
        let resolution = await loader.offer(try Self.body(topLevel: "\"schemaVersion\": 2, "), source: "push")
        #expect(resolution.outcome == .updated, "\(String(describing: resolution.reasonNewOneRejected))")
        #expect(resolution.warnings.map(\.path).contains("features.respond.overides"))
    }
}
