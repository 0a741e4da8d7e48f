import Foundation
public import HybridCore
import HybridTestSupport
import HybridTransport
import Testing

/// The checks every provider adapter must pass, each against a loopback server replaying the provider's documented
/// wire format (a `ProviderFixture`): plain text, streaming order and TTFT, structured output, a tool-call round
/// trip, every documented error
/// mapped to its `GenerationError` kind without leaking the key, a missing key, and cancellation closing the
/// connection. A third-party `LanguageModel` proves itself with a few lines of Swift Testing:
///
/// ```swift
/// import HybridTesting
/// import Testing
///
/// @Test func myProviderConforms() async throws {
///     try await ProviderConformance.checkAll(MyProviderFixture())
/// }
/// ```
public enum ProviderConformance {
    /// The plain-text request every fixture answers.
    public static let plainRequest = GenerationRequest(
        instructions: "Answer in one short sentence.",
        messages: [.user("What is the capital of France?")],
        options: GenerationOptions(temperature: 0.2, maxOutputTokens: 64)
    )

    /// The schema structured fixtures answer.
    public static let personSchema: JSONValue = [
        "type": "object",
        "properties": ["name": ["type": "string"], "company": ["type": "string"]],
        "required": ["name", "company"],
    ]
    /// The object structured fixtures must decode to.
    public static let personExpected: JSONValue = ["name": "Ada Lovelace", "company": "Analytical Engines Ltd"]
    /// The structured-output request every fixture answers.
    public static let structuredRequest = GenerationRequest(
        instructions: "Extract the person.",
        messages: [.user("Ada Lovelace works at Analytical Engines Ltd.")],
        options: GenerationOptions(maxOutputTokens: 64),
        responseSchema: personSchema,
        responseSchemaName: "person"
    )

    /// A loopback server answering every request with one fixture, and the model pointed at it.
    struct Harness {
        var server: LoopbackHTTPServer
        var model: any LanguageModel
        var logs: LogCapture
        var fixture: any ProviderFixture

        /// Neither `texts` nor any captured log line contains the fixture's key.
        func expectNoKey(in texts: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) {
            for text in texts + logs.lines {
                #expect(!text.contains(fixture.apiKey), "the API key leaked: \(text)", sourceLocation: sourceLocation)
            }
        }
    }

    static func harness(
        _ fixture: any ProviderFixture, environment: [String: String]? = nil,
        respond: @escaping @Sendable () -> ScriptedResponse
    ) throws -> Harness {
        let server = try LoopbackHTTPServer { _ in respond() }
        let logs = LogCapture()
        let model = fixture.makeModel(
            baseURL: server.baseURL, environment: environment ?? [fixture.apiKeyVariable: fixture.apiKey], logger: logs.logger)
        return Harness(server: server, model: model, logs: logs, fixture: fixture)
    }

    /// Serves a fixture byte for byte; event streams go out in small chunks with a pause between them, so lines
    /// and events are split across reads and the first delta arrives measurably before the end.
    static func served(_ fixture: WireFixture) -> ScriptedResponse {
        let contentType = fixture.headers["Content-Type"] ?? ""
        let isStream = contentType.hasPrefix("text/event-stream") || contentType.hasPrefix("application/x-ndjson")
        return isStream
            ? fixture.scripted(chunkSize: 29, delay: .milliseconds(2))
            : fixture.scripted(chunkSize: 1 << 20)
    }

    // MARK: - Success paths

    /// Plain text: text, usage, identity and request shape.
    public static func plainText(_ fixture: any ProviderFixture) async throws {
        let harness = try Self.harness(fixture) { Self.served(fixture.plainText) }
        defer { harness.server.stop() }
        let response = try await harness.model.generate(Self.plainRequest)
        ConformanceChecks.checkPlainText(response, model: harness.model, expected: fixture.plainTextExpected)
        #expect(response.timing.timeToFirstToken == nil)
        let request = try #require(harness.server.requests.first)
        try fixture.verifyRequest(request, stream: false, structured: false)
        harness.expectNoKey()
    }

    /// Streaming: deltas in order, one final completed, TTFT < total, usage.
    public static func streaming(_ fixture: any ProviderFixture) async throws {
        let harness = try Self.harness(fixture) { Self.served(fixture.stream) }
        defer { harness.server.stop() }
        let run = await ConformanceChecks.run(harness.model.stream(Self.plainRequest))
        try ConformanceChecks.checkStream(run, model: harness.model, expected: fixture.streamExpected)
        let request = try #require(harness.server.requests.first)
        try fixture.verifyRequest(request, stream: true, structured: false)
        harness.expectNoKey()

        // `generateStreamed` (what an eval's sample calls) sends the same streaming request and ends with the
        // same response as `stream`'s `.completed`, timings included.
        let direct = try Self.harness(fixture) { Self.served(fixture.stream) }
        defer { direct.server.stop() }
        let response = try await direct.model.generateStreamed(Self.plainRequest)
        let completed = try #require(run.completed.first)
        #expect(response.text == completed.text)
        #expect(response.usage == completed.usage)
        #expect(response.timing.timeToFirstToken != nil)
        try fixture.verifyRequest(try #require(direct.server.requests.first), stream: true, structured: false)
    }

    /// A stream written one byte at a time decodes to the same text and usage.
    public static func byteByByteStream(_ fixture: any ProviderFixture) async throws {
        let harness = try Self.harness(fixture) { fixture.stream.scripted(chunkSize: 1) }
        defer { harness.server.stop() }
        let run = await ConformanceChecks.run(harness.model.stream(Self.plainRequest))
        #expect(run.error == nil, "\(String(describing: run.error))")
        #expect(run.deltas.joined() == fixture.streamExpected.deltas.joined())
        #expect(run.completed.first?.usage == fixture.streamExpected.usage)
    }

    /// Structured output parses against the schema (generate and stream).
    public static func structuredOutput(_ fixture: any ProviderFixture) async throws {
        let once = try Self.harness(fixture) { Self.served(fixture.structured) }
        defer { once.server.stop() }
        let response = try await once.model.generate(Self.structuredRequest)
        try ConformanceChecks.checkStructured(response, schema: Self.personSchema, expected: Self.personExpected)
        try fixture.verifyRequest(try #require(once.server.requests.first), stream: false, structured: true)

        let streamed = try Self.harness(fixture) { Self.served(fixture.structuredStream) }
        defer { streamed.server.stop() }
        let run = await ConformanceChecks.run(streamed.model.stream(Self.structuredRequest))
        #expect(run.error == nil, "\(String(describing: run.error))")
        let final = try #require(run.completed.first)
        #expect(final.text == run.deltas.joined())
        try ConformanceChecks.checkStructured(final, schema: Self.personSchema, expected: Self.personExpected)
        try fixture.verifyRequest(try #require(streamed.server.requests.first), stream: true, structured: true)
    }

    // MARK: - Errors

    /// Each documented error maps to its typed error; the key never leaks.
    public static func documentedError(_ fixture: any ProviderFixture, _ errorCase: ErrorCase) async throws {
        let harness = try Self.harness(fixture) { Self.served(errorCase.response) }
        defer { harness.server.stop() }
        let request = errorCase.request ?? Self.plainRequest
        let error: GenerationError?
        if errorCase.streaming {
            let run = await ConformanceChecks.run(harness.model.stream(request))
            #expect(run.completed.isEmpty)
            error = run.error as? GenerationError
            #expect(run.error == nil || error != nil, "stream failed with a non-GenerationError: \(String(describing: run.error))")
        } else {
            do {
                _ = try await harness.model.generate(request)
                error = nil
            } catch let thrown {
                error = thrown
            }
        }
        let mapped = try #require(error, "no error was thrown")
        #expect(mapped.kind == errorCase.expected, "got \(mapped)")
        #expect(errorCase.check(mapped), "details wrong: \(mapped)")
        #expect(mapped.model == harness.model.id)
        harness.expectNoKey(in: [mapped.description, String(describing: mapped)])
    }

    /// A missing key makes the model unavailable and nothing is sent.
    public static func missingKey(_ fixture: any ProviderFixture) async throws {
        let harness = try Self.harness(fixture, environment: [:]) { Self.served(fixture.plainText) }
        defer { harness.server.stop() }
        let expected = UnavailabilityReason.missingAPIKey(variable: fixture.apiKeyVariable)
        #expect(await harness.model.availability() == .unavailable(expected))
        #expect(await harness.model.availability().description == "unavailable: \(fixture.apiKeyVariable) not set")
        await #expect(throws: GenerationError.unavailable(model: harness.model.id, reason: expected)) {
            _ = try await harness.model.generate(Self.plainRequest)
        }
        #expect(harness.server.requestCount == 0)
    }

    // MARK: - Cancellation

    /// Cancelling the consumer stops the stream and closes the connection.
    public static func cancellation(_ fixture: any ProviderFixture) async throws {
        let signal = ServerSignal()
        defer { signal.fire() }
        let head = fixture.streamHead
        let harness = try Self.harness(fixture) {
            ScriptedResponse(
                status: head.status, headers: head.headerFields.map { (name: $0.name, value: $0.value) },
                parts: [.bytes(head.body), .waitFor(signal), .text("\n")], framing: .chunked)
        }
        defer { harness.server.stop() }
        let stream = harness.model.stream(Self.plainRequest)
        let (firstDelta, deltaSeen) = AsyncStream<Void>.makeStream()
        let consumer = Task {
            var completed = false
            var deltas = 0
            do {
                for try await event in stream {
                    switch event {
                    case .delta:
                        deltas += 1
                        deltaSeen.yield()
                    case .completed: completed = true
                    case .toolCallDelta: break
                    }
                }
            } catch {}
            return (deltas, completed)
        }
        for await _ in firstDelta { break }
        let started = ContinuousClock.now
        consumer.cancel()
        let (deltas, completed) = await consumer.value
        #expect(deltas == 1)
        #expect(!completed)
        // Causal check: the server only sees a hang-up if the client closed the connection. The generous bound
        // only rules out "ended by the 60 s transfer timeout instead".
        #expect(await harness.server.waitUntil { $0.abortedResponses >= 1 })
        #expect(ContinuousClock.now - started < .seconds(30))
        harness.expectNoKey()
    }

    /// Every check, for one provider: each success path, each of its documented errors, a missing key, cancellation.
    public static func checkAll(_ fixture: any ProviderFixture) async throws {
        try await plainText(fixture)
        try await streaming(fixture)
        try await byteByByteStream(fixture)
        try await structuredOutput(fixture)
        try await typedOutput(fixture)
        try await typedFallback(fixture)
        try await toolCallRoundTrip(fixture)
        for errorCase in fixture.errors { try await documentedError(fixture, errorCase) }
        try await missingKey(fixture)
        try await cancellation(fixture)
    }
}
