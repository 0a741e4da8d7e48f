import Foundation
@testable import HybridConfig
import HybridConfigTools
import HybridTransport
import Testing

@Suite("Config signatures")
struct ConfigSignatureTests {
    static let url = "https://config.example.test/hybrid.json"
    let signer = ConfigSigner.generate()
    var verifier: ConfigSignatureVerifier { try! ConfigSignatureVerifier(publicKeyBase64: signer.publicKeyBase64) }

    func loader(serving body: Data, signature: String?, detached: Bool = false) -> ConfigLoader {
        let transport = FakeTransport { request in
            if request.url.hasSuffix(".sig") {
                guard detached, let signature else { return FakeTransport.Reply(status: 404) }
                return .body(Data(signature.utf8))
            }
            let headers = detached ? [] : signature.map { [(ConfigFetcher.signatureHeader, $0)] } ?? []
            return .body(body, headers: headers)
        }
        return ConfigLoader(
            bundled: Fixtures.bundled(), sourceURL: Self.url, fetcher: ConfigFetcher(transport: transport), verifier: verifier)
    }

    @Test func goodSignatureInHeaderIsAccepted() async throws {
        let body = Fixtures.config(version: 2)
        let resolution = await loader(serving: body, signature: try signer.sign(body)).refresh()
        #expect(resolution.config.version == 2)
        #expect(resolution.reasonNewOneRejected == nil)
    }

    @Test func detachedSignatureIsFetched() async throws {
        let body = Fixtures.config(version: 2)
        let resolution = await loader(serving: body, signature: try signer.sign(body), detached: true).refresh()
        #expect(resolution.config.version == 2)
    }

    @Test func oneFlippedByteIsRejected() async throws {
        var body = Fixtures.config(version: 2)
        let signature = try signer.sign(body)
        // Flip a byte inside a string value so the payload stays valid JSON and only the signature can catch it.
        let index = try #require(body.range(of: Data("SmolLM2-135M".utf8))).lowerBound
        body[index] ^= 0x20
        let resolution = await loader(serving: body, signature: signature).refresh()
        #expect(resolution.source == .bundled)
        guard let error = resolution.reasonNewOneRejected, error.kind == .signatureInvalid, let source = error.source,
            let reason = error.reason
        else {
            Issue.record("expected signatureInvalid, got \(String(describing: resolution.reasonNewOneRejected))")
            return
        }
        #expect(source == Self.url)
        #expect(reason.contains("does not match"))
    }

    @Test func unsignedPayloadIsRejectedWhenAKeyIsConfigured() async {
        let resolution = await loader(serving: Fixtures.config(version: 2), signature: nil).refresh()
        #expect(resolution.source == .bundled)
        #expect(resolution.reasonNewOneRejected == .signatureMissing(source: Self.url))
    }

    @Test func signatureFromAnotherKeyIsRejected() async throws {
        let body = Fixtures.config(version: 2)
        let other = try ConfigSigner.generate().sign(body)
        let resolution = await loader(serving: body, signature: other).refresh()
        guard resolution.reasonNewOneRejected?.kind == .signatureInvalid else {
            Issue.record("expected signatureInvalid, got \(String(describing: resolution.reasonNewOneRejected))")
            return
        }
    }

    @Test func tamperedCacheIsNotUsed() async throws {
        let body = Fixtures.config(version: 2)
        let cache = InMemoryConfigSnapshotCache([
            ConfigSnapshot(source: Self.url, body: body, etag: nil, version: 2, fetchedAt: Date(), signature: try ConfigSigner.generate().sign(body))
        ])
        let loader = ConfigLoader(bundled: Fixtures.bundled(), sourceURL: Self.url, fetcher: nil, cache: cache, verifier: verifier)
        let resolution = await loader.start()
        #expect(resolution.source == .bundled)
    }

    @Test func keysRoundTripThroughBase64AndBadKeysAreRefused() throws {
        let copy = try ConfigSigner(privateKeyBase64: signer.privateKeyBase64)
        #expect(copy.publicKeyBase64 == signer.publicKeyBase64)
        #expect(throws: ConfigError.self) { try ConfigSignatureVerifier(publicKeyBase64: "not base64!") }
        #expect(throws: ConfigError.self) { try ConfigSignatureVerifier(publicKeyBase64: Data(count: 31).base64EncodedString()) }
        #expect(throws: ConfigError.signatureInvalid(source: "x", reason: "signature must be 64 bytes, found 3")) {
            try verifier.verify(Data(), signature: "AAAA", source: "x")
        }
    }
}
