import Foundation
import HybridTestSupport
import Testing
import HybridProjectTestSupport

/// `hybrid view` as users run it answers only at the address it printed: a page on another domain that resolves to
/// 127.0.0.1 (DNS rebinding) sends its own name in `Host` and must not read local results.
@Suite("hybrid view: Host check")
struct ViewHostCheckTests {
    /// The status curl gets for `url` with `host` as the `Host` header.
    static func status(_ url: String, host: String) async throws -> String {
        try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: \(host)", url]
        ).stdout
    }

    @Test func onlyThePrintedAddressIsAnswered() async throws {
        try await ViewFixture.with { fixture in
            let view = try await ViewServerProcess.start(database: fixture.databasePath, in: fixture.directory)
            defer { view.stop() }
            let port = try #require(URL(string: view.baseURL)?.port)
            #expect(try await Self.status(view.baseURL, host: "127.0.0.1:\(port)") == "200")
            #expect(try await Self.status(view.baseURL, host: "localhost:\(port)") == "200")
            #expect(try await Self.status(view.url("/run?id=baseline-run"), host: "rebind.example.com:\(port)") == "421")
            #expect(try await Self.status(view.baseURL, host: "127.0.0.1:\(port + 1)") == "421")
        }
    }
}
