import Foundation
public import HybridCore
import HybridTestSupport
import Testing

extension ProviderConformance {
    /// A tool taking a title and an optional artist.
    public static let albumTool = ToolDefinition(
        name: "lookup_album", description: "Looks up an album's release year and running time in minutes.",
        parameters: [
            "type": "object", "required": ["title"],
            "properties": ["title": ["type": "string"], "artist": ["type": "string"]],
        ])
    /// A tool whose `from` and `to` are enums, so invalid arguments are easy to write.
    public static let convertTool = ToolDefinition(
        name: "convert_units", description: "Converts a quantity between units of time.",
        parameters: [
            "type": "object", "required": ["value", "from", "to"],
            "properties": [
                "value": ["type": "number"], "from": ["type": "string", "enum": ["minutes", "hours"]],
                "to": ["type": "string", "enum": ["minutes", "hours"]],
            ],
        ])
    /// The call the model made earlier in the conversation.
    public static let earlierCall = ToolCall(
        id: "call_album_1", name: "lookup_album", arguments: ["title": "Blue", "artist": "Joni Mitchell"])
    /// What `lookup_album` returned for it.
    public static let earlierResult = #"{"title":"Blue","year":1971,"minutes":36}"#
    /// The arguments every tool-call fixture's `convert_units` call carries.
    public static let toolCallArguments: JSONValue = ["value": 36, "from": "minutes", "to": "hours"]

    /// A conversation in which the model already called `lookup_album` and got its result; it should now call
    /// `convert_units`.
    public static let toolRequest = GenerationRequest(
        instructions: "Answer with the tools.",
        messages: [
            .user("How long is Blue by Joni Mitchell, in hours?"), .assistant(toolCalls: [earlierCall]),
            .toolResult(for: earlierCall, content: earlierResult),
        ],
        options: GenerationOptions(maxOutputTokens: 64), tools: [albumTool, convertTool], toolChoice: .auto)

    /// The tool-call round trip: the request carries the tools and the earlier result in the provider's format, a
    /// recorded call decodes (generate and stream, fragments assembling to the same call), and arguments that break
    /// the tool's schema are a `tool_arguments` output-check failure rather than an error.
    public static func toolCallRoundTrip(_ fixture: any ProviderFixture) async throws {
        let once = try Self.harness(fixture) { Self.served(fixture.toolCall) }
        defer { once.server.stop() }
        let response = try await once.model.generate(Self.toolRequest)
        try checkConvertCall(response, fixture: fixture)
        try fixture.verifyToolRequest(try requestBody(once))

        let streamed = try Self.harness(fixture) { Self.served(fixture.toolCallStream) }
        defer { streamed.server.stop() }
        let run = await ConformanceChecks.run(streamed.model.stream(Self.toolRequest))
        #expect(run.error == nil, "\(String(describing: run.error))")
        let final = try #require(run.completed.first)
        try checkConvertCall(final, fixture: fixture)
        #expect(!run.toolCallDeltas.isEmpty, "no tool-call delta was streamed")
        var assembler = ToolCallAssembler()
        run.toolCallDeltas.forEach { assembler.add($0) }
        #expect(assembler.calls == final.toolCalls)
        try fixture.verifyToolRequest(try requestBody(streamed))

        let invalid = try Self.harness(fixture) { Self.served(fixture.invalidToolCall) }
        defer { invalid.server.stop() }
        let bad = try await invalid.model.generate(Self.toolRequest)
        let checks = OutputChecks(schema: nil, constraints: nil, tools: Self.toolRequest.tools)
        let failures = checks.evaluate(bad).failures(selectedBy: OutputCheckSelection(names: [ToolCallCheck.resultName]))
        #expect(failures.map(\.path) == ["$.tool_calls[0].arguments.to"])
        #expect(failures.map(\.keyword) == ["enum"])
        once.expectNoKey()
    }

    private static func checkConvertCall(_ response: GenerationResponse, fixture: any ProviderFixture) throws {
        let call = try #require(response.toolCalls.first, "no tool call decoded")
        #expect(response.toolCalls.count == 1)
        #expect(call.id == fixture.toolCallID)
        #expect(call.name == "convert_units")
        #expect(call.arguments.map { $0.canonicalJSON } == Self.toolCallArguments.canonicalJSON)
        #expect(response.finishReason == .toolCall)
        let result = OutputChecks(schema: nil, constraints: nil, tools: Self.toolRequest.tools).evaluate(response)
        #expect(result.adherent, "\(result.results)")
    }

    private static func requestBody(_ harness: Harness) throws -> JSONValue {
        let request = try #require(harness.server.requests.first)
        return try JSONValue(parsing: String(decoding: request.body, as: UTF8.self))
    }
}
