import Foundation
import HybridTestSupport
import Testing

/// `--config URL` in the CLI: a config that cannot be had is an error unless the user allows the bundled
/// defaults; `config show` never prints a secret.
@Suite("hybrid --config sources")
struct ConfigSourceTests {
    @Test func anUnfetchableConfigURLWithoutALastKnownGoodCopyFailsUnlessFallbackIsAllowed() async throws {
        let server = try LoopbackHTTPServer { _ in .text(status: 500, "internal error") }
        defer { server.stop() }
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let url = server.baseURL + "/hybrid.config.json"

        let refused = try await fixture.hybrid(["models", "--config", url, "--db", fixture.database])
        #expect(refused.status == 1, "\(refused.output)")
        #expect(refused.output.contains("answered HTTP 500"), "\(refused.output)")
        #expect(refused.output.contains("--allow-bundled-fallback"), "\(refused.output)")

        let allowed = try await fixture.hybrid(["--config", url, "--db", fixture.database, "--allow-bundled-fallback", "models"])
        #expect(allowed.status == 0, "\(allowed.output)")
        #expect(allowed.output.contains("using bundled defaults"), "\(allowed.output)")
    }

    @Test func configShowNeverPrintsASecret() async throws {
        let key = "sk-proj-" + "Xy12Ab34Cd56Ef78Gh90Ij12Kl34Mn56Op78Qr90St12"
        let google = "AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let configPath = try fixture.writeConfig("leaky.json", models: ["fake-a"], baseURL: "http://127.0.0.1:9/v1?key=\(google)") {
            $0.description = "Summaries; debug key \(key)"
        }
        let body = try Data(contentsOf: URL(fileURLWithPath: configPath))
        let server = try LoopbackHTTPServer { _ in .data(body, contentType: "application/json") }
        defer { server.stop() }

        for extra in [[], ["--json"]] {
            let shown = try await fixture.hybrid(["config", "show", "--url", server.baseURL + "/c.json"] + extra)
            #expect(shown.status == 1, "\(shown.output)")
            #expect(!shown.output.contains(key) && !shown.output.contains(google), "\(shown.output)")
            #expect(shown.output.contains("features.summarize.description"), "\(shown.output)")
            #expect(shown.output.contains("models.fake-a.baseURL"), "\(shown.output)")
        }
    }
}
