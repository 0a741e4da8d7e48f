import Foundation
import HybridAI
import HybridTestSupport
import Testing

/// The declared router across launches, through the app's public API only: the install id and the last good config
/// survive a relaunch (`stateDirectory`), and `stateDirectory: nil` keeps nothing.
@Suite("Declared router: identity and config across launches")
struct DeclaredPersistenceTests {
    static func models() -> [ModelChoice] {
        [.model(ScriptedLanguageModel(id: "device", whenExhausted: .reply("from the device"))),
            .model(ScriptedLanguageModel(id: "cloud", tier: .thirdParty, whenExhausted: .reply("from the cloud")))]
    }

    /// The remote config: the declared document, one version on, the cloud first.
    static func publish(to file: URL) throws {
        var remote = ModelChoice.document(models())
        remote.version += 1
        remote.features["respond"]?.priority = ["cloud", "device"]
        try remote.encodedJSON().write(to: file)
    }

    @Test("a relaunch keeps the install id, and serves the last fetched config when the source is gone")
    func relaunchKeepsIdentityAndConfig() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let state = directory.url.appendingPathComponent("state")
        let file = directory.url.appendingPathComponent("remote.json")
        try Self.publish(to: file)
        let configURL = file.absoluteString

        let first = try Router(models: Self.models(), configURL: configURL, stateDirectory: state)
        #expect(await first.refreshConfig()?.source == .remote(url: configURL))
        #expect(try await first.respond(to: "hello").servedBy.id == "cloud")

        try FileManager.default.removeItem(at: file)  // offline: the source cannot be read any more
        let relaunched = try Router(models: Self.models(), configURL: configURL, stateDirectory: state)
        #expect(relaunched.installId == first.installId)
        #expect(try await relaunched.respond(to: "hello").servedBy.id == "cloud", "the last good config, not the declared order")
        #expect(await relaunched.refreshConfig()?.source == .lastKnownGood(url: configURL))
        let stored = try String(contentsOf: state.appendingPathComponent("install-id"), encoding: .utf8)
        #expect(stored.trimmingCharacters(in: .whitespacesAndNewlines) == first.installId)
    }

    @Test("stateDirectory: nil keeps nothing: a new install id per launch and the declared order offline")
    func optingOutKeepsNothing() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let configURL = directory.url.appendingPathComponent("missing.json").absoluteString
        let one = try Router(models: Self.models(), configURL: configURL, stateDirectory: nil)
        let two = try Router(models: Self.models(), configURL: configURL, stateDirectory: nil)
        #expect(one.installId != two.installId)
        #expect(try await two.respond(to: "hello").servedBy.id == "device")
        #expect(try Router(models: Self.models(), installId: "mine", stateDirectory: nil).installId == "mine")
        #expect(FileManager.default.fileExists(atPath: directory.url.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty, "nothing written")
    }
}
