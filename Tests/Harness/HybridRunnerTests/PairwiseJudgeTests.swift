import Foundation
import HybridCore
import HybridReport
import HybridRunner
import HybridTestSupport
import Testing

/// The pairwise judge asks in both orders, and the reliability figures catch judges whose bias is known: one that
/// always says "A" is inconsistent on every case; one that always picks its own model's answer is flagged against a
/// fair second judge; a judge that agrees with people scores kappa 1 (#51).
@Suite("Pairwise judge and its reliability")
struct PairwiseJudgeTests {
    /// Answers by reading the two answers: prefers the one containing `favourite`, else TIE.
    final class ReadingJudge: LanguageModel {
        let id: String
        let displayName = "reading judge"
        let tier = ModelTier.onDevice
        let capabilities = ModelCapabilities(streaming: false, contextWindow: 8_192)
        let favourite: String
        init(id: String, favourite: String) {
            self.id = id
            self.favourite = favourite
        }
        func availability() async -> ModelAvailability { .available }
        func generate(_ request: GenerationRequest) async throws(GenerationError) -> GenerationResponse {
            let text = request.messages.last?.content ?? ""
            let a = text.range(of: "Answer A:\n").map { text[$0.upperBound...] }.map { String($0.prefix { $0 != "\n" }) } ?? ""
            let b = text.range(of: "Answer B:\n").map { text[$0.upperBound...] }.map { String($0.prefix { $0 != "\n" }) } ?? ""
            let answer = a.contains(favourite) == b.contains(favourite) ? "TIE" : a.contains(favourite) ? "A" : "B"
            return GenerationResponse(
                text: answer, servedBy: identity, usage: TokenUsage(promptTokens: 50, completionTokens: 1),
                timing: GenerationTiming(timeToFirstToken: nil, total: .milliseconds(1)), finishReason: .stop)
        }
        func stream(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error> { streamByGenerating(request) }
    }

    /// Ten cases: the device's answer is correct in the first four, the cloud's in the other six.
    static let cases: [(device: String, cloud: String)] = (0..<10).map { i in
        i < 4 ? ("correct answer (by device)", "wrong answer (by cloud)") : ("wrong answer (by device)", "correct answer (by cloud)")
    }

    @Test("a judge that always says A flips with the order on every case: 100 % inconsistency, no preference counted")
    func alwaysFirstIsAlwaysInconsistent() async throws {
        let judge = PairwiseJudge(model: ScriptedLanguageModel(id: "first-lover", whenExhausted: .reply("A")), criteria: "correctness")
        var verdicts: [PairwiseJudge.Verdict] = []
        for item in Self.cases { verdicts.append(try await judge.judge(prompt: "q", first: item.device, second: item.cloud)) }
        #expect(verdicts.allSatisfy { $0.isInconsistent && $0.forward == .first && $0.swapped == .second })
        let rate = try #require(JudgeReliability.positionSwapInconsistency(inconsistent: verdicts.filter(\.isInconsistent).count, judged: verdicts.count))
        #expect(rate.proportion == 1 && rate.lower > 0.69)
        #expect(verdicts.allSatisfy { $0.usage.promptTokens > 0 }, "both calls are billed to the judge")
    }

    @Test("a judge that picks its own model's answer is flagged against a fair second judge; alone it is only warned about")
    func selfPreferenceIsFlagged() async throws {
        let partial = PairwiseJudge(model: ReadingJudge(id: "device", favourite: "(by device)"), criteria: "correctness")
        let fair = PairwiseJudge(model: ReadingJudge(id: "grader", favourite: "correct answer"), criteria: "correctness")
        var own: [Bool?] = []
        var others: [Bool?] = []
        for item in Self.cases {
            own.append(try await partial.judge(prompt: "q", first: item.device, second: item.cloud).preference.map { $0 == .first })
            others.append(try await fair.judge(prompt: "q", first: item.device, second: item.cloud).preference.map { $0 == .first })
        }
        #expect(own.allSatisfy { $0 == true }, "consistent in both orders, and always its own")
        let finding = JudgeReliability.selfPreference(judge: "device", own: own, others: others)
        #expect(finding.flagged, "\(finding.finding)")
        #expect(finding.othersRate?.successes == 4 && finding.ownRate?.successes == 10)
        let alone = JudgeReliability.selfPreference(judge: "device", own: own, others: nil)
        #expect(!alone.flagged && alone.finding.contains("no second judge"))
    }

    @Test("agreement with people: pairs as a rate with its interval, rubric scores as quadratic-weighted kappa")
    func agreementWithPeople() throws {
        let human: [String?] = ["first", "second", "second", nil, "tie"]
        let judge: [String?] = ["first", "second", "first", "first", nil]
        let pairs = try #require(JudgeReliability.pairAgreement(judge: judge, human: human))
        #expect(pairs.trials == 3 && pairs.successes == 2, "only cases both labelled and consistently judged count")
        #expect(JudgeReliability.pairAgreement(judge: [nil], human: ["first"]) == nil, "no claim without answered cases")

        #expect(JudgeReliability.weightedKappa(judge: [1, 2, 3, 4, 5], human: [1, 2, 3, 4, 5]) == 1)
        // A judge one point high everywhere: close but not perfect; a reversed one: negative.
        let shifted = try #require(JudgeReliability.weightedKappa(judge: [2, 3, 4, 5, 5], human: [1, 2, 3, 4, 5]))
        #expect(shifted > 0.6 && shifted < 1)
        let reversed = try #require(JudgeReliability.weightedKappa(judge: [5, 4, 3, 2, 1], human: [1, 2, 3, 4, 5]))
        #expect(abs(reversed + 1) < 1e-12)
        #expect(JudgeReliability.weightedKappa(judge: [3, 3], human: [3, 3]) == nil, "no variation: undefined, not 1")
    }
}
