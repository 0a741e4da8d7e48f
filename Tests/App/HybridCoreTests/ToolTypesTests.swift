import Foundation
@testable import HybridCore
@testable import HybridValidation
import Testing

@Suite struct ToolTypesTests {
    static let lookupAlbum = ToolDefinition(
        name: "lookup_album", description: "Finds an album by title and artist.",
        parameters: [
            "type": "object", "required": ["title"],
            "properties": ["title": ["type": "string"], "year": ["type": "integer", "minimum": 1900]],
        ])

    private func roundTrip<T: Codable & Equatable>(_ value: T) throws -> T {
        try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
    }

    @Test func toolDefinitionRoundTrips() throws {
        #expect(try roundTrip(Self.lookupAlbum) == Self.lookupAlbum)
        #expect(ToolDefinition(name: "now", description: "The time.").parameters == ["type": "object", "properties": [:]])
    }

    @Test func toolCallKeepsUnparsableArgumentsVerbatim() throws {
        let good = ToolCall(id: "call_1", name: "lookup_album", argumentsText: "{\"title\": \"Blue\"}")
        #expect(good.arguments == ["title": "Blue"])
        let bad = ToolCall(id: "call_2", name: "lookup_album", argumentsText: "{\"title\": ")
        #expect(bad.arguments == nil)
        #expect(bad.argumentsText == "{\"title\": ")
        #expect(try roundTrip(good) == good)
        #expect(try roundTrip(bad) == bad)
        let fromValue = ToolCall(id: "toolu_1", name: "lookup_album", arguments: ["year": 1971, "title": "Blue"])
        #expect(fromValue.argumentsText == "{\"title\":\"Blue\",\"year\":1971}")
    }

    @Test func messagesWithToolPartsRoundTripAndPlainOnesKeepTheirOldForm() throws {
        let call = ToolCall(id: "call_1", name: "lookup_album", argumentsText: "{\"title\":\"Blue\"}")
        let messages: [ChatMessage] = [
            .user("Find Blue"), .assistant(toolCalls: [call]), .toolResult(for: call, content: "{\"year\":1971}"),
            .assistant("Blue came out in 1971."),
        ]
        #expect(try roundTrip(messages) == messages)
        #expect(messages[2].role == .tool && messages[2].toolCallID == "call_1" && messages[2].toolName == "lookup_album")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let plain = String(decoding: try encoder.encode(ChatMessage.user("hi")), as: UTF8.self)
        #expect(plain == "{\"content\":\"hi\",\"role\":\"user\"}")
        let old = try JSONDecoder().decode(ChatMessage.self, from: Data("{\"role\":\"assistant\",\"content\":\"x\"}".utf8))
        #expect(old == .assistant("x"))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ChatMessage.self, from: Data("{\"role\":\"system\",\"content\":\"x\"}".utf8))
        }
    }

    @Test func roleIsClosedToUnknownNames() {
        #expect(ChatMessage.Role(rawValue: "tool") == .tool)
        #expect(ChatMessage.Role(rawValue: "system") == nil)
        #expect(ChatMessage.Role.allCases.map(\.rawValue) == ["user", "assistant", "tool"])
    }

    @Test func assemblerJoinsFragmentsByIndex() {
        var assembler = ToolCallAssembler()
        #expect(assembler.isEmpty)
        for delta in [
            ToolCallDelta(index: 1, id: "b", name: "convert_units", argumentsFragment: "{\"value\":"),
            ToolCallDelta(index: 0, id: "a", name: "lookup_album"),
            ToolCallDelta(index: 0, argumentsFragment: "{\"title\":\"Bl"),
            ToolCallDelta(index: 1, argumentsFragment: "3}"),
            ToolCallDelta(index: 0, argumentsFragment: "ue\"}"),
            ToolCallDelta(index: 2, argumentsFragment: "{}"),
        ] {
            assembler.add(delta)
        }
        #expect(assembler.calls == [
            ToolCall(id: "a", name: "lookup_album", argumentsText: "{\"title\":\"Blue\"}"),
            ToolCall(id: "b", name: "convert_units", argumentsText: "{\"value\":3}"),
            ToolCall(id: "call_2", name: "", argumentsText: "{}"),
        ])
    }

    @Test func cacheIdentityChangesWithToolsButNotForPlainRequests() {
        let plain = GenerationRequest(prompt: "hi")
        #expect(plain.cacheIdentity == "1:-7:user:hi18:t=- m=- s=- seed=-0:8:response")
        var withTools = plain
        withTools.tools = [Self.lookupAlbum]
        var forced = withTools
        forced.toolChoice = .tool("lookup_album")
        let call = ToolCall(id: "c", name: "lookup_album", argumentsText: "{}")
        var withResult = plain
        withResult.messages += [.assistant(toolCalls: [call]), .toolResult(for: call, content: "none")]
        let identities = Set([plain, withTools, forced, withResult].map(\.cacheIdentity))
        #expect(identities.count == 4)
    }
}

@Suite struct ToolCallCheckTests {
    let checks = OutputChecks(schema: nil, constraints: nil, tools: [ToolTypesTests.lookupAlbum])

    private func response(_ calls: [ToolCall], text: String = "") -> GenerationResponse {
        GenerationResponse(
            text: text, servedBy: ModelIdentity(id: "m", tier: .onDevice), usage: TokenUsage(promptTokens: 1, completionTokens: 1),
            timing: GenerationTiming(timeToFirstToken: .zero, total: .zero), finishReason: .toolCall, toolCalls: calls)
    }

    @Test func validArgumentsPass() {
        let result = checks.evaluate(response([ToolCall(id: "1", name: "lookup_album", arguments: ["title": "Blue"])]))
        #expect(result.results.map(\.name) == ["tool_arguments"])
        #expect(result.adherent)
    }

    @Test func schemaViolationsNameTheCallAndArgumentPath() {
        let call = ToolCall(id: "1", name: "lookup_album", arguments: ["title": "Blue", "year": 1800])
        let failures = checks.evaluate(response([call])).failures(selectedBy: OutputCheckSelection(names: ["tool_arguments"]))
        #expect(failures.count == 1)
        #expect(failures.first?.path == "$.tool_calls[0].arguments.year")
        #expect(failures.first?.keyword == "minimum")
        #expect(failures.first?.description == "tool_arguments: $.tool_calls[0].arguments.year minimum")
    }

    @Test func unparsableArgumentsAndUnknownToolsAreFailuresNotErrors() {
        let calls = [
            ToolCall(id: "1", name: "lookup_album", argumentsText: "{title: Blue}"),
            ToolCall(id: "2", name: "play_song", argumentsText: "{}"),
        ]
        let result = checks.evaluate(response(calls))
        #expect(!result.adherent)
        let failures = result.failures(selectedBy: .all)
        #expect(failures.map(\.path) == ["$.tool_calls[0].arguments", "$.tool_calls[1].name"])
        #expect(failures.map(\.keyword) == ["json", "tool"])
        #expect(failures[1].message.contains("offered: lookup_album"))
    }

    @Test func theSchemaEntrySelectsToolArgumentsAndConstraintsDoNot() {
        #expect(OutputCheckSelection(schema: true).selects("tool_arguments"))
        #expect(!OutputCheckSelection(allConstraints: true).selects("tool_arguments"))
        #expect((try? OutputCheckSelection(parsing: ["tool_arguments"]))?.names == ["tool_arguments"])
        #expect(OutputChecks(schema: nil, constraints: nil).resultNamesProduced.contains("tool_arguments"))
    }

    @Test func aToolCallTurnSkipsTheTextChecks() throws {
        let schema = try JSONSchema(["type": "object"])
        let answerChecks = OutputChecks(schema: schema, constraints: nil, tools: [ToolTypesTests.lookupAlbum])
        let call = ToolCall(id: "1", name: "lookup_album", arguments: ["title": "Blue"])
        #expect(answerChecks.evaluate(response([call])).results.map(\.name) == ["tool_arguments"])
        #expect(answerChecks.evaluate(response([], text: "{}")).results.map(\.name) == ["json_parses", "schema_valid"])
        #expect(OutputChecks(schema: schema, constraints: nil).evaluate(response([call])).results.isEmpty)
    }
}
