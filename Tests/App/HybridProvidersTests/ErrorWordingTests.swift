import Foundation
@testable import HybridConfig
@testable import HybridCore
@testable import HybridProviders
@testable import HybridTestSupport
@testable import HybridTransport
import Testing

/// What a developer and a user read when a provider fails (#66): a rejected key names where the key came from (code,
/// an environment variable, a proxy's headers), and a server's 500 is not told to the user as a connection problem.
@Suite("Error wording: where the key came from, a server's failure against a network's")
struct ErrorWordingTests {
    static let unauthorized = #"{"error": {"message": "Incorrect API key provided", "type": "invalid_request_error", "code": "invalid_api_key"}}"#

    static func failure(_ model: any LanguageModel) async -> GenerationError? {
        do {
            _ = try await model.generate(GenerationRequest(prompt: "Hi"))
            return nil
        } catch {
            return error
        }
    }

    @Test("a 401 for a key passed in code names the code, not an environment variable, and never shows the key")
    func keyFromCode() async throws {
        let server = try LoopbackHTTPServer { _ in .json(status: 401, Self.unauthorized) }
        defer { server.stop() }
        let config = TestModels.config(baseURL: server.baseURL + "/v1", apiKeyVariable: nil)
        let model = ModelFactory(transport: URLSessionTransport())
            .withCredentials(.key("sk-test-in-code-123456"), for: "m").model(id: "m", config: config)
        let error = try #require(await Self.failure(model))
        #expect(error.kind == .authentication)
        #expect(error.description.contains("the key your app passed in code (ModelCredentials.key)"), "\(error.description)")
        #expect(!error.description.contains("environment variable"), "\(error.description)")
        #expect(!error.description.contains("sk-test-in-code-123456"))
    }

    @Test("a 401 for a key read from the environment names the variable; one for proxy headers names the proxy")
    func keyFromEnvironmentOrProxy() async throws {
        let server = try LoopbackHTTPServer { _ in .json(status: 401, Self.unauthorized) }
        defer { server.stop() }
        let config = TestModels.config(baseURL: server.baseURL + "/v1")
        let fromEnvironment = try #require(await Self.failure(TestModels.model(URLSessionTransport(), config: config)))
        #expect(fromEnvironment.description.contains("environment variable \(OpenAIWireFixtures.apiKeyVariable)"), "\(fromEnvironment.description)")

        let proxied = ModelFactory(transport: URLSessionTransport())
            .withCredentials(.proxy(headers: { ["X-App-Token": "t"] }), for: "m")
            .model(id: "m", config: TestModels.config(baseURL: server.baseURL + "/v1", apiKeyVariable: nil))
        let fromProxy = try #require(await Self.failure(proxied))
        #expect(fromProxy.description.contains("ModelCredentials.proxy"), "\(fromProxy.description)")
    }

    @Test("a server's 500 tells the user to try later; a network failure to check the connection")
    func serverErrorIsNotAConnectionProblem() async throws {
        let server = try LoopbackHTTPServer { _ in .json(status: 500, #"{"error": {"message": "boom", "type": "server_error"}}"#) }
        defer { server.stop() }
        let failing = try #require(await Self.failure(TestModels.model(URLSessionTransport(), config: TestModels.config(baseURL: server.baseURL + "/v1"))))
        #expect(failing.kind == .serverError)
        #expect(failing.localizedDescription == "The service ran into a problem.")
        #expect(failing.userRemedy == "Try again later.")

        let unreachable = GenerationError.unavailable(model: "m", reason: .unreachable("connection refused"))
        #expect(unreachable.userRemedy == "Check your connection and try again.")
    }
}
