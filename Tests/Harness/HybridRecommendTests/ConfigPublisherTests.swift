import Foundation
import HybridConfig
import HybridConfigTools
import HybridCore
import HybridCurl
import HybridRecommend
import HybridStore
import HybridTransport
import Testing

@Suite struct ConfigPublisherTests {
    static let models: [(id: String, tier: ModelTier, price: Double)] = [("local", .onDevice, 0), ("cloud", .thirdParty, 1)]

    private func document(version: Int, priority: [String]) throws -> Data {
        var document = try StoredRunFixture.config(models: Self.models, priority: priority)
        document.version = version
        return document.encodedJSON()
    }

    private func publisher() throws -> (ConfigPublisher, SQLiteConfigSnapshotStore) {
        let snapshots = SQLiteConfigSnapshotStore(database: try HybridDatabase.inMemory())
        return (ConfigPublisher(transport: CurlTransport.shared, snapshots: snapshots), snapshots)
    }

    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-publish-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func httpPublishIsConditionalOnTheLastSeenETagAndRefuses412() async throws {
        let server = try ConfigStoreServer()
        defer { server.stop() }
        let (publisher, snapshots) = try publisher()
        let url = server.url("/app/config.json")

        // Nothing there yet: creates (If-None-Match: *) and records the ETag it read back.
        let v2 = try document(version: 2, priority: ["local", "cloud"])
        let first = try await publisher.publish(v2, to: url)
        #expect(first.expectedETag == nil)
        #expect(server.stored("/app/config.json")?.body == v2)
        #expect(try await snapshots.latestSnapshot(source: url)?.etag == first.etag)

        // The next publish is conditional on that ETag without being told.
        let v3 = try document(version: 3, priority: ["cloud", "local"])
        let second = try await publisher.publish(v3, to: url)
        #expect(second.expectedETag == first.etag)
        #expect(server.stored("/app/config.json")?.body == v3)

        // Someone else publishes: our next upload is refused and their config stays.
        let theirs = try document(version: 7, priority: ["local"])
        server.overwrite("/app/config.json", body: theirs)
        let v4 = try document(version: 4, priority: ["local", "cloud"])
        await #expect(throws: PublishError.self) { _ = try await publisher.publish(v4, to: url) }
        do {
            _ = try await publisher.publish(v4, to: url)
        } catch .preconditionFailed(_, let expected, let found) {
            #expect(expected == second.etag)
            #expect(found != nil && found != second.etag)
        }
        #expect(server.stored("/app/config.json")?.body == theirs)
        #expect(server.refusedPuts == 2)
    }

    @Test func aVersionNotAboveThePublishedOneAndInvalidConfigsAreRefusedBeforeUploading() async throws {
        let server = try ConfigStoreServer()
        defer { server.stop() }
        let (publisher, _) = try publisher()
        let url = server.url("/config.json")
        _ = try await publisher.publish(try document(version: 5, priority: ["local"]), to: url)
        let before = server.requestCount
        await #expect(throws: PublishError.versionNotIncreasing(offered: 5, published: 5)) {
            _ = try await publisher.publish(try document(version: 5, priority: ["cloud"]), to: url)
        }
        var broken = try StoredRunFixture.config(models: Self.models, priority: ["nowhere"])
        broken.version = 9
        await #expect(throws: PublishError.self) { _ = try await publisher.publish(broken.encodedJSON(), to: url) }
        await #expect(throws: PublishError.self) {
            _ = try await publisher.publish(try document(version: 9, priority: ["local"]), to: "http://example.com/config.json")
        }
        #expect(server.requestCount == before)
    }

    @Test func dryRunValidatesAndSendsNothing() async throws {
        let server = try ConfigStoreServer()
        defer { server.stop() }
        let (publisher, snapshots) = try publisher()
        let url = server.url("/config.json")
        let outcome = try await publisher.publish(
            try document(version: 2, priority: ["local"]), to: url, options: .init(dryRun: true, signer: ConfigSigner.generate()))
        #expect(outcome.dryRun && outcome.signature != nil)
        #expect(server.requestCount == 0)
        #expect(try await snapshots.latestSnapshot(source: url) == nil)
    }

    @Test func signedHTTPPublishCarriesAVerifiableSignatureInTheHeaderAndTheSigFile() async throws {
        let server = try ConfigStoreServer()
        defer { server.stop() }
        let (publisher, _) = try publisher()
        let signer = ConfigSigner.generate()
        let url = server.url("/signed.json")
        let body = try document(version: 2, priority: ["cloud"])
        _ = try await publisher.publish(body, to: url, options: .init(signer: signer, promptFiles: .bundled))
        let verifier = try ConfigSignatureVerifier(publicKeyBase64: signer.publicKeyBase64)
        let stored = try #require(server.stored("/signed.json"))
        try verifier.verify(stored.body, signature: stored.signature, source: url)
        let detached = try #require(server.stored("/signed.json.sig"))
        try verifier.verify(body, signature: String(decoding: detached.body, as: UTF8.self), source: url + ".sig")

        // An app loading through the fetcher with the public key accepts it.
        let loader = ConfigLoader(
            bundled: try ConfigValidator.load(try document(version: 1, priority: ["local"])), sourceURL: url,
            fetcher: ConfigFetcher(transport: CurlTransport.shared), verifier: verifier)
        let resolution = await loader.refresh()
        #expect(resolution.reasonNewOneRejected == nil)
        #expect(resolution.config.version == 2)
    }

    @Test func filePublishEmulatesIfMatchWithTheContentHashAndWritesTheSignatureBeside() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("site/hybrid.config.json").path
        let url = "file://" + path
        let (publisher, _) = try publisher()
        let fetcher = ConfigFetcher(transport: CurlTransport.shared)

        let v2 = try document(version: 2, priority: ["local"])
        let created = try await publisher.publish(v2, to: url)
        #expect(FileManager.default.contents(atPath: path) == v2)
        guard case .fetched(let payload) = try await fetcher.fetch(url) else { Issue.record("no payload"); return }
        #expect(created.etag == payload.etag)

        // Changed behind our back: refused, the file keeps the other content.
        let other = try document(version: 3, priority: ["cloud"])
        try other.write(to: URL(fileURLWithPath: path))
        let v4 = try document(version: 4, priority: ["cloud", "local"])
        await #expect(throws: PublishError.self) { _ = try await publisher.publish(v4, to: url) }
        #expect(FileManager.default.contents(atPath: path) == other)

        // Based on the ETag `config fetch` prints, it goes through; signed, the .sig lands beside it.
        guard case .fetched(let seen) = try await fetcher.fetch(url) else { Issue.record("no payload"); return }
        let signer = ConfigSigner.generate()
        _ = try await publisher.publish(v4, to: url, options: .init(ifMatch: seen.etag, signer: signer))
        #expect(FileManager.default.contents(atPath: path) == v4)
        let signature = try String(contentsOfFile: path + ".sig", encoding: .utf8)
        try ConfigSignatureVerifier(publicKeyBase64: signer.publicKeyBase64).verify(v4, signature: signature, source: path)

        // Unsigned over a signed file would leave a stale signature: refused.
        await #expect(throws: PublishError.staleSignature(path: path)) {
            _ = try await publisher.publish(try document(version: 5, priority: ["local"]), to: url)
        }
    }

    /// An app has no `prompts/` folder: a document naming template files goes out with their text inline, signed as
    /// sent, and an app's loader (no prompt files) takes it; a document without them goes out byte for byte (above).
    @Test func templateFilesArePublishedInline() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("hybrid.config.json").path
        var body = String(decoding: HybridConfigDocument.bundledDefaultsJSON, as: UTF8.self)
        body = body.replacingOccurrences(of: "\"version\": 1,", with: "\"version\": 2,")
        let signer = ConfigSigner.generate()
        let (publisher, _) = try publisher()
        _ = try await publisher.publish(Data(body.utf8), to: "file://" + path, options: .init(signer: signer, promptFiles: .bundled))

        let sent = try #require(FileManager.default.contents(atPath: path))
        #expect(!String(decoding: sent, as: UTF8.self).contains("templateFile"))
        let signature = try String(contentsOfFile: path + ".sig", encoding: .utf8)
        try ConfigSignatureVerifier(publicKeyBase64: signer.publicKeyBase64).verify(sent, signature: signature, source: path)
        var expected = try HybridConfigDocument.bundledDefaults().document
        expected.version = 2
        #expect(try ConfigValidator.load(sent).document == expected)
        #expect(throws: ConfigError.self) { try ConfigValidator.load(Data(body.utf8)) }
    }

    @Test func rollbackRepublishesAnEarlierVersionAboveTheCurrentOne() async throws {
        let server = try ConfigStoreServer()
        defer { server.stop() }
        let (publisher, snapshots) = try publisher()
        let url = server.url("/config.json")
        _ = try await publisher.publish(try document(version: 2, priority: ["local", "cloud"]), to: url)
        let v3 = try await publisher.publish(try document(version: 3, priority: ["cloud", "local"]), to: url)

        // An app running version 3.
        let loader = ConfigLoader(
            bundled: try ConfigValidator.load(try document(version: 1, priority: ["local"])), sourceURL: url,
            fetcher: ConfigFetcher(transport: CurlTransport.shared))
        #expect(await loader.refresh().config.version == 3)

        let outcome = try await publisher.rollback(to: 2, destination: url, now: Date(timeIntervalSince1970: 1_700_000_000))
        #expect(outcome.version == 4)
        #expect(outcome.expectedETag == v3.etag)
        let published = try ConfigValidator.decode(try #require(server.stored("/config.json")).body)
        #expect(published.version == 4)
        #expect(published.features["summarize"]?.priority == ["local", "cloud"])
        #expect(published.description?.contains("version 2") == true)
        #expect(try await snapshots.snapshots(source: url).map(\.version) == [4, 3, 2])

        // The app takes it: a higher version with the old content.
        let resolution = await loader.refresh()
        #expect(resolution.config.version == 4)
        #expect(resolution.config.features["summarize"]?.priority == ["local", "cloud"])

        await #expect(throws: PublishError.self) { _ = try await publisher.rollback(to: 9, destination: url) }
    }
}
