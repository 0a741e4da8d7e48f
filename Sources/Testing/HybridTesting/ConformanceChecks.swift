import Foundation
public import HybridCore
import Testing

/// The checks every provider must pass, written once. Loopback fixtures pass exact expectations; the real local
/// model passes nil where its text cannot be known in advance, and the checks fall back to invariants.
public enum ConformanceChecks {
    /// The answer to a plain-text `generate`.
    public static func checkPlainText(_ response: GenerationResponse, model: any LanguageModel, expected: ExpectedOutput?) {
        #expect(response.servedBy == model.identity)
        #expect(!response.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        #expect(response.timing.total > .zero)
        if let ttft = response.timing.timeToFirstToken { #expect(ttft <= response.timing.total) }
        checkUsage(response.usage)
        guard let expected else { return }
        #expect(response.text == expected.text)
        #expect(response.usage == expected.usage)
        #expect(response.finishReason == expected.finishReason)
        if let model = expected.providerModel { #expect(response.providerModel == model) }
    }

    /// Usage came from the provider, not the estimator.
    public static func checkUsage(_ usage: TokenUsage) {
        #expect(!usage.isEstimated)
        #expect(usage.promptTokens > 0)
        #expect(usage.completionTokens > 0)
    }

    /// Everything a stream produced, in order, and its error if it failed.
    public struct StreamRun {
        /// Text deltas, in order.
        public var deltas: [String] = []
        /// Tool-call fragments, in order.
        public var toolCallDeltas: [ToolCallDelta] = []
        /// Every `.completed` event (exactly one on success).
        public var completed: [GenerationResponse] = []
        /// Index of each `.completed` among all events, to check it came last.
        public var completedPositions: [Int] = []
        /// How many events arrived.
        public var eventCount = 0
        /// The error the stream ended with, if any.
        public var error: (any Error)?
    }

    /// Consumes `stream` to its end, recording every event and the error it ended with.
    public static func run(_ stream: AsyncThrowingStream<GenerationEvent, any Error>) async -> StreamRun {
        var run = StreamRun()
        do {
            for try await event in stream {
                switch event {
                case .delta(let text): run.deltas.append(text)
                case .toolCallDelta(let delta): run.toolCallDeltas.append(delta)
                case .completed(let response):
                    run.completed.append(response)
                    run.completedPositions.append(run.eventCount)
                }
                run.eventCount += 1
            }
        } catch {
            run.error = error
        }
        return run
    }

    /// A successful stream: deltas in order, then exactly one `.completed` as the last event, whose text is the
    /// deltas joined; TTFT measured and earlier than the end.
    public static func checkStream(_ run: StreamRun, model: any LanguageModel, expected: ExpectedStream?) throws {
        #expect(run.error == nil, "the stream failed: \(String(describing: run.error))")
        #expect(!run.deltas.isEmpty)
        #expect(run.completed.count == 1)
        #expect(run.completedPositions == [run.eventCount - 1])
        let response = try #require(run.completed.last)
        #expect(response.text == run.deltas.joined())
        #expect(response.servedBy == model.identity)
        let ttft = try #require(response.timing.timeToFirstToken)
        #expect(ttft > .zero)
        #expect(ttft < response.timing.total)
        checkUsage(response.usage)
        guard let expected else { return }
        #expect(run.deltas == expected.deltas)
        #expect(response.usage == expected.usage)
    }

    /// Structured output parsed and valid against `schema`; equal to `expected` when given.
    public static func checkStructured(_ response: GenerationResponse, schema: JSONValue, expected: JSONValue?) throws {
        let structured = try #require(response.structured)
        #expect(try JSONSchema(schema).validate(structured).isEmpty)
        if let expected { #expect(structured == expected) }
    }
}
