import AppIntegrationFeatures
import Foundation
import HybridAI
import Testing

/// The example app ships its own config (the harness's defaults are not in the app's modules): it must validate, and
/// the app must start on it through the public API alone and decline what its policy says to decline.
@Suite("The example app's shipped config")
struct ExampleAppConfigTests {
    @Test("it validates without warnings and declares the features the app calls")
    func itValidates() throws {
        let shipped = try AppConfig.bundled()
        #expect(shipped.warnings.isEmpty, "\(shipped.warnings)")
        #expect(Set(shipped.document.features.keys) == ["summarize", "extract"])
    }

    @Test("the app starts on it offline and declines a text too short to summarize before calling any model")
    func theAppStartsOnIt() async throws {
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-example-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }
        let feature = try await SummaryFeature.start(
            models: ModelFactory(), transport: URLSessionTransport.shared, storage: storage, installId: "install-1")
        #expect(await feature.loader.current.config == (try AppConfig.bundled().document))
        await #expect(throws: RouterError.self) { _ = try await feature.summarize("Too short.") }
        do {
            _ = try await feature.summarize("Too short.")
        } catch {
            #expect(error.code == .inputTooShort)
        }
    }
}
