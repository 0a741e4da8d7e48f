import Foundation
@testable import HybridConfig
import HybridTransport
import Testing

@Suite("Config fetcher")
struct ConfigFetcherTests {
    @Test(arguments: [
        "https://config.example.com/c.json", "http://127.0.0.1:8080/c.json", "http://127.1.2.3/c.json",
        "http://localhost:9/c.json", "http://[::1]:8080/c.json",
    ])
    func acceptedSources(url: String) throws {
        #expect(try ConfigFetcher.checkSource(url) == .http)
    }

    @Test(arguments: ["http://config.example.com/c.json", "http://127.0.0.1.evil.com/c.json", "ftp://127.0.0.1/c", "not a url", "http://10.0.0.1/c"])
    func refusedSources(url: String) {
        #expect(throws: ConfigError.self) { try ConfigFetcher.checkSource(url) }
    }

    @Test func refusedBeforeAnyTraffic() async {
        let transport = FakeTransport { _ in .body(Data()) }
        let fetcher = ConfigFetcher(transport: transport)
        await #expect(throws: ConfigError.self) { try await fetcher.fetch("http://config.example.com/c.json") }
        #expect(transport.requests.isEmpty)
    }

    @Test func fileSourceHasETagsAnd304() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-fetch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("config.json")
        try Fixtures.config(version: 2).write(to: file)
        let fetcher = ConfigFetcher(transport: FakeTransport { _ in .body(Data()) })
        guard case .fetched(let first) = try await fetcher.fetch(file.absoluteString) else {
            Issue.record("expected a body")
            return
        }
        #expect(first.etag != nil)
        #expect(try await fetcher.fetch(file.absoluteString, etag: first.etag) == .notModified(etag: first.etag))
        try Fixtures.config(version: 3).write(to: file)
        guard case .fetched(let second) = try await fetcher.fetch(file.absoluteString, etag: first.etag) else {
            Issue.record("expected a body after the change")
            return
        }
        #expect(second.etag != first.etag)
    }

    @Test func bodyLimitIsEnforcedEvenIfTheTransportIgnoresIt() async {
        let transport = FakeTransport { _ in FakeTransport.Reply(status: 200, chunks: Array(repeating: Data(count: 1024), count: 10)) }
        let fetcher = ConfigFetcher(transport: transport, options: .init(maxBodyBytes: 4096))
        await #expect(throws: ConfigError.bodyTooLarge(url: "https://c.test/c.json", limit: 4096)) {
            try await fetcher.fetch("https://c.test/c.json")
        }
        #expect(transport.requests.first?.maxBodyBytes == 4096)
    }

    @Test func truncatedBodyIsDetectedFromContentLength() async {
        let transport = FakeTransport { _ in .body(Data("{\"ver".utf8), headers: [("Content-Length", "100")]) }
        let fetcher = ConfigFetcher(transport: transport)
        await #expect(throws: ConfigError.fetchFailed(url: "https://c.test/c.json", reason: "truncated body: received 5 of 100 bytes")) {
            try await fetcher.fetch("https://c.test/c.json")
        }
    }
}
