import Foundation
import HybridCore
@testable import HybridRunner
import Testing

/// Multi-turn cases with tools and expected tool calls: the bundled dataset loads, and every malformed part is
/// named by file, line and JSON path.
@Suite struct ToolDatasetTests {
    private func errors(_ lines: [String]) -> [String] {
        Dataset.parseJSONL(lines.joined(separator: "\n"), path: "cases.jsonl").errors.map(\.description)
    }

    private static let tool = #"{"name": "set_timer", "description": "Start a timer.", "parameters": {"type": "object", "properties": {"minutes": {"type": "integer"}}, "required": ["minutes"]}}"#

    @Test func theBundledToolDatasetHasMultiTurnCasesWithExpectedCalls() throws {
        let dataset = try Dataset.load(path: "datasets/tools.jsonl")
        #expect(dataset.cases.count >= 12)
        let conversations = dataset.cases.compactMap(\.conversation)
        #expect(conversations.count == dataset.cases.count)
        #expect(conversations.allSatisfy { !$0.tools.isEmpty && $0.expectedToolCalls != nil && !$0.messages.isEmpty })
        #expect(conversations.contains { $0.messages.contains { $0.role == .tool } }, "no multi-turn case with a tool result")
        #expect(conversations.contains { ($0.expectedToolCalls?.count ?? 0) >= 2 }, "no case expecting a call sequence")
        #expect(conversations.contains { $0.expectedToolCalls == [] }, "no case expecting a plain answer")
        let rules = conversations.flatMap { $0.expectedToolCalls ?? [] }.map(\.arguments)
        #expect(rules.contains { $0.exact != nil } && rules.contains { $0.subset != nil })
        #expect(rules.contains { $0.schema != nil } && rules.contains { !$0.regex.isEmpty })
    }

    @Test func aCaseWithMessagesNeedsNoInputAndKeepsItsTurns() throws {
        let line = #"{"id": "a", "messages": [{"role": "user", "content": "Set a timer for 5 minutes."}, {"role": "assistant", "tool_calls": [{"id": "c1", "name": "set_timer", "arguments": {"minutes": 5}}]}, {"role": "tool", "tool_call_id": "c1", "name": "set_timer", "content": {"ok": true}}], "tools": [TOOL], "expected_tool_calls": []}"#
            .replacingOccurrences(of: "TOOL", with: Self.tool)
        let parsed = Dataset.parseJSONL(line, path: "cases.jsonl")
        #expect(parsed.errors.isEmpty)
        let conversation = try #require(parsed.cases.first?.conversation)
        #expect(conversation.messages.map(\.role) == [.user, .assistant, .tool])
        #expect(conversation.messages[1].toolCalls.first?.arguments == ["minutes": 5])
        #expect(conversation.messages[2].content == #"{"ok":true}"#)
        #expect(conversation.messages[2].toolCallID == "c1")
        #expect(conversation.expectedToolCalls == [])
        #expect(parsed.cases[0].hasOwnMessages)
    }

    @Test func malformedToolPartsAreNamedByLineAndJSONPath() {
        let user = #""messages": [{"role": "user", "content": "hi"}], "tools": [TOOL]"#.replacingOccurrences(of: "TOOL", with: Self.tool)
        let found = errors([
            #"{"id": "1", USER, "expected_tool_calls": [{"name": "set_timer", "arguments": {"regex": {"minutes": "(unclosed"}}}]}"#,
            #"{"id": "2", USER, "expected_tool_calls": [{"name": "set_timer", "arguments": {"subsetx": {}}}]}"#,
            #"{"id": "3", USER, "expected_tool_calls": [{"name": "set_timr"}]}"#,
            #"{"id": "4", "messages": [{"role": "tool", "tool_call_id": "c9", "name": "set_timer", "content": "x"}], "tools": []}"#,
            #"{"id": "5", "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]}"#,
            #"{"id": "6", "messages": [{"role": "user", "content": "hi"}], "tools": [{"name": "t", "parameters": {"type": "objekt"}}]}"#,
            #"{"id": "7", USER, "expected_tool_calls": [{"name": "set_timer", "arguments": {"schema": {"minimum": "x"}}}]}"#,
            #"{"id": "8", "tools": []}"#,
        ].map { $0.replacingOccurrences(of: "USER", with: user) })
        #expect(found.count == 8)
        #expect(found[0].hasPrefix("cases.jsonl:1: expected_tool_calls[0].arguments.regex.minutes: invalid regular expression '(unclosed'"))
        #expect(found[1].hasPrefix("cases.jsonl:2: expected_tool_calls[0].arguments.subsetx: unknown rule (allowed: exact, subset, schema, regex)"))
        #expect(found[2] == "cases.jsonl:3: expected_tool_calls[0].name: \"set_timr\" is not one of the case's tools (set_timer)")
        #expect(found[3] == "cases.jsonl:4: messages[0].tool_call_id: \"c9\" answers no earlier assistant tool call")
        #expect(found[4] == "cases.jsonl:5: messages[1]: the last turn is the assistant's; end with a user or tool turn")
        #expect(found[5].hasPrefix("cases.jsonl:6: tools[0].parameters: not a usable JSON Schema"))
        #expect(found[6].hasPrefix("cases.jsonl:7: expected_tool_calls[0].arguments.schema: not a usable JSON Schema"))
        #expect(found[7] == "cases.jsonl:8: missing \"input\" object (or \"messages\")")
    }
}
