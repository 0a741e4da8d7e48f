import Foundation
import HybridTestSupport
import Synchronization
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

    /// The CLI's config cache is `SQLiteConfigSnapshotCache`: the fetched config is saved through it, and the next
    /// run, with the server down, starts from the copy its raw read-only connection reads back.
    @Test func aFetchedConfigIsTheNextRunsLastKnownGoodCopy() async throws {
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let body = try Data(contentsOf: URL(fileURLWithPath: try fixture.writeConfig(
            "remote.json", models: ["cached-model"], baseURL: "http://127.0.0.1:9/v1")))
        let serving = Mutex(true)
        let server = try LoopbackHTTPServer { _ in
            serving.withLock { $0 } ? .data(body, contentType: "application/json") : .text(status: 500, "internal error")
        }
        defer { server.stop() }
        let url = server.baseURL + "/hybrid.config.json"

        let fetched = try await fixture.hybrid(["models", "--config", url, "--db", fixture.database])
        #expect(fetched.status == 0, "\(fetched.output)")
        #expect(fetched.output.contains("cached-model"), "\(fetched.output)")
        serving.withLock { $0 = false }
        let cached = try await fixture.hybrid(["models", "--config", url, "--db", fixture.database])
        #expect(cached.status == 0, "\(cached.output)")
        #expect(cached.output.contains("cached-model"), "\(cached.output)")
        #expect(cached.output.contains("answered HTTP 500"), "\(cached.output)")
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
