import HybridCore
@testable import HybridRunner
import HybridStore
import Testing

/// Tool-call scoring: argument matchers, unordered match, sequence, argument validity, partial credit.
@Suite struct ToolCallScorerTests {
    private static let tools = [
        ToolDefinition(
            name: "convert_units", description: "Convert a quantity.",
            parameters: ["type": "object", "properties": ["value": ["type": "number"], "from_unit": ["type": "string"], "to_unit": ["type": "string"]],
                         "required": ["value", "from_unit", "to_unit"]]),
        ToolDefinition(
            name: "set_timer", description: "Start a timer.",
            parameters: ["type": "object", "properties": ["minutes": ["type": "integer", "minimum": 1]], "required": ["minutes"]]),
    ]

    private func call(_ name: String, _ arguments: String, id: String = "c") -> ToolCall {
        ToolCall(id: id, name: name, argumentsText: arguments)
    }

    private func result(_ score: ToolCallScore, _ name: String) -> ConstraintResult? {
        score.results.first { $0.name == name }
    }

    @Test func eachArgumentRuleAcceptsAndRefuses() throws {
        let exact = ArgumentMatcher(exact: ["minutes": 10])
        #expect(exact.mismatch(["minutes": 10.0]) == nil)
        #expect(exact.mismatch(["minutes": 10, "label": "tea"]) != nil)
        let subset = ArgumentMatcher(subset: ["value": 5, "unit": ["from": "km"]])
        #expect(subset.mismatch(["value": 5, "unit": ["from": "km", "to": "mi"], "note": "x"]) == nil)
        #expect(subset.mismatch(["value": 5, "unit": ["from": "m"]]) == "$.unit.from is \"m\", expected \"km\"")
        #expect(subset.mismatch(["unit": ["from": "km"]]) == "$.value is missing")
        let schema = ArgumentMatcher(schema: try JSONSchema(["type": "object", "required": ["text"]]))
        #expect(schema.mismatch(["text": "x"]) == nil)
        #expect(schema.mismatch(["due": "x"])?.hasPrefix("arguments fail the schema at $") == true)
        let regex = ArgumentMatcher(regex: ["title": "(?i)^abbey road$", "when.day": "^sat", "n": "^4$"])
        #expect(regex.mismatch(["title": "Abbey Road", "when": ["day": "saturday"], "n": 4]) == nil)
        #expect(regex.mismatch(["title": "Abbey Road!", "when": ["day": "saturday"], "n": 4]) == "$.title \"Abbey Road!\" does not match /(?i)^abbey road$/")
        #expect(regex.mismatch(["title": "Abbey Road", "n": 4]) == "$.when.day is missing")
        #expect(ArgumentMatcher().mismatch(nil) == nil)
        #expect(exact.mismatch(nil) == "the arguments are not valid JSON")
    }

    @Test func callsMatchInAnyOrderButTheSequenceCheckWantsTheExpectedOrder() {
        let expected = [
            ExpectedToolCall(name: "convert_units", arguments: ArgumentMatcher(subset: ["value": 100])),
            ExpectedToolCall(name: "set_timer", arguments: ArgumentMatcher(exact: ["minutes": 5])),
        ]
        let swapped = [call("set_timer", #"{"minutes": 5}"#), call("convert_units", #"{"value": 100, "from_unit": "F", "to_unit": "C"}"#)]
        let score = ToolCallScorer().evaluate(swapped, expected: expected, tools: Self.tools)
        #expect(result(score, "tool_call_match")?.passed == true)
        #expect(result(score, "tool_call_sequence")?.passed == false)
        #expect(result(score, "tool_call_sequence")?.message == "call 1: called set_timer, expected convert_units")
        #expect(result(score, "tool_arguments")?.passed == true)
        #expect(score.partialCredit == 1)
        let inOrder = ToolCallScorer().evaluate(swapped.reversed(), expected: expected, tools: Self.tools)
        #expect(inOrder.results.allSatisfy { $0.passed })
    }

    @Test func aMatchingPairingIsFoundWhereGreedyPairingWouldFail() {
        // The first expectation accepts either call; pairing it with the first call would starve the second.
        let expected = [
            ExpectedToolCall(name: "set_timer"),
            ExpectedToolCall(name: "set_timer", arguments: ArgumentMatcher(exact: ["minutes": 1])),
        ]
        let calls = [call("set_timer", #"{"minutes": 1}"#, id: "a"), call("set_timer", #"{"minutes": 9}"#, id: "b")]
        #expect(ToolCallScorer.maximumPairing(calls, expected) == [1, 0])
    }

    @Test func wrongMissingExtraAndInvalidCallsFailWithReasons() {
        let expected = [ExpectedToolCall(name: "set_timer", arguments: ArgumentMatcher(exact: ["minutes": 10]))]
        let wrongArgs = ToolCallScorer().evaluate([call("set_timer", #"{"minutes": 15}"#)], expected: expected, tools: Self.tools)
        #expect(result(wrongArgs, "tool_call_match")?.passed == false)
        #expect(result(wrongArgs, "tool_call_match")?.message.hasPrefix("set_timer: arguments {\"minutes\":15} are not exactly") == true)
        #expect(result(wrongArgs, "tool_call_sequence") == nil, "one expected call has no sequence to check")
        #expect(wrongArgs.partialCredit == 0)

        let none = ToolCallScorer().evaluate([], expected: expected, tools: Self.tools)
        #expect(result(none, "tool_call_match")?.message == "no call to set_timer")
        #expect(result(none, "tool_arguments") == nil)

        let extra = ToolCallScorer().evaluate(
            [call("set_timer", #"{"minutes": 10}"#), call("lookup_album", #"{"title": "x"}"#)], expected: expected, tools: Self.tools)
        #expect(result(extra, "tool_call_match")?.passed == false)
        #expect(result(extra, "tool_call_match")?.message == "unexpected call to lookup_album")
        #expect(result(extra, "tool_arguments")?.passed == false, "lookup_album was never offered")
        #expect(extra.partialCredit == 0.5)

        let invalid = ToolCallScorer().evaluate([call("set_timer", #"{"minutes": 0"#)], expected: expected, tools: Self.tools)
        #expect(result(invalid, "tool_arguments")?.passed == false)
        #expect(result(invalid, "tool_call_match")?.message == "set_timer: the arguments are not valid JSON")
    }

    @Test func aCaseExpectingNoCallPassesOnlyATextAnswer() {
        let plain = ToolCallScorer().evaluate([], expected: [], tools: Self.tools)
        #expect(plain.results.map(\.name) == ["tool_call_match"])
        #expect(plain.results[0].passed && plain.partialCredit == 1)
        let called = ToolCallScorer().evaluate([call("set_timer", #"{"minutes": 3}"#)], expected: [], tools: Self.tools)
        #expect(result(called, "tool_call_match")?.passed == false)
        #expect(called.partialCredit == 0)
    }

    @Test func theSampleScorerStoresToolChecksAndSkipsTextChecksForACall() throws {
        let scorer = SampleScorer(schema: nil, constraints: OutputConstraints(maxWords: 3))
        let conversation = ConversationCase(
            messages: [.user("Set a timer for 10 minutes")], tools: Self.tools,
            expectedToolCalls: [ExpectedToolCall(name: "set_timer", arguments: ArgumentMatcher(exact: ["minutes": 10]))])
        let metrics = scorer.score(
            output: "", toolCalls: [call("set_timer", #"{"minutes": 10}"#)], reference: nil, conversation: conversation)
        #expect(metrics.constraints.map(\.name) == ["tool_call_match", "tool_arguments"])
        #expect(metrics.adherent)
        #expect(metrics.quality == ["tool_call_match": 1])
        #expect(metrics.parsed?["tool_calls"]?.arrayValue?.first?["arguments"] == ["minutes": 10])
        let text = scorer.score(output: "Ten minutes it is, starting now.", toolCalls: [], reference: nil, conversation: conversation)
        #expect(text.constraints.map(\.name) == ["max_words", "tool_call_match"])
        #expect(!text.adherent)
    }

    @Test func rescoringReadsTheStoredCallsBackAndChecksThemAgain() async throws {
        let calls = [call("set_timer", #"{"minutes": 10}"#, id: "c1"), call("set_timer", #"{"minutes": "#, id: "c2")]
        #expect(TranscriptText.toolCalls(fromParsedOutput: TranscriptText.parsedOutput(calls)) == calls)
        let stored = ResultRecord(
            key: ResultKey(runID: "src", caseID: "t1", armID: "a", repeatIndex: 0), feature: "assistant", promptVariant: "default",
            modelID: "m", tier: .onDevice, renderedPromptHash: "h",
            rawOutput: TranscriptText.output(text: "", toolCalls: calls), parsedOutput: TranscriptText.parsedOutput(calls),
            usage: nil, timings: ResultTimings(totalMs: 5))
        let conversation = ConversationCase(
            messages: [.user("Set a timer for 10 minutes")], tools: Self.tools,
            expectedToolCalls: [ExpectedToolCall(name: "set_timer", arguments: ArgumentMatcher(exact: ["minutes": 10]))])
        let rescorer = Rescorer(
            store: SQLiteResultStore(database: try HybridDatabase.inMemory()),
            scorer: SampleScorer(schema: nil, constraints: OutputConstraints(maxWords: 1)), references: [:],
            conversations: ["t1": conversation])
        let result = await rescorer.rescored(stored, into: "new")
        #expect(result.constraints.map(\.name) == ["tool_call_match", "tool_arguments"], "text checks wait for a text answer")
        #expect(result.constraints.map(\.passed) == [false, false], "one extra call, whose arguments are not JSON")
        #expect(result.scores.first { $0.scorer == "tool_call_match" }?.value == 0.5)
    }
}
