import Foundation
import HybridReport
import HybridStore
import Testing

@Suite("Case flips between two runs")
struct CaseFlipsTests {
    typealias F = ReportFixtures

    /// Baseline: c0…c11 pass except c3, c7 (fail) and c9 (error). Candidate: c1, c2, c10 now fail (c10 errors),
    /// c3 now passes, c7 still fails; the never-sent arm and a result without constraints never flip.
    static func runs() -> (baseline: [ResultRecord], candidate: [ResultRecord]) {
        var baseline: [ResultRecord] = []
        var candidate: [ResultRecord] = []
        for i in 0..<12 {
            let caseID = "c\(i)"
            baseline.append(F.result(run: "base", caseID: caseID, passed: ![3, 7].contains(i), error: i == 9 ? "timeout" : nil))
            candidate.append(F.result(
                run: "cand", caseID: caseID, passed: ![1, 2, 7].contains(i), error: i == 10 ? "timeout" : nil))
            baseline.append(F.result(run: "base", caseID: caseID, arm: "v@cloud", error: "unavailable"))
            candidate.append(F.result(run: "cand", caseID: caseID, arm: "v@cloud", passed: i % 2 == 0))
        }
        candidate.append(F.result(run: "cand", caseID: "c12", passed: false))
        baseline.append(F.result(run: "base", caseID: "c13", passed: nil))
        candidate.append(F.result(run: "cand", caseID: "c13", passed: nil))
        return (baseline, candidate)
    }

    @Test("pass→fail and fail→pass per arm, sorted by case id, with both outputs and the failing check")
    func flips() throws {
        let (baseline, candidate) = Self.runs()
        let flips = CaseFlips.find(baselineRunID: "base", baseline: baseline, candidateRunID: "cand", candidate: candidate)
        #expect(flips.arms.map(\.armID) == ["v@m"], "the never-sent arm has no pairs and is left out")
        let arm = try #require(flips.arms.first)
        #expect(arm.pairedCount == 12, "c0…c11; not c13 (unchecked) nor c12 (candidate only)")
        #expect(arm.passToFail.map(\.caseID) == ["c1", "c2", "c10"])
        #expect(arm.failToPass.map(\.caseID) == ["c3", "c9"])
        #expect(arm.passToFailCount == 3 && arm.failToPassCount == 2)
        let c1 = arm.passToFail[0]
        #expect(c1.candidate.input == "in c1" && c1.baseline.input == "in c1")
        #expect(c1.baseline.passed == true && c1.baseline.output == "out c1")
        #expect(c1.candidate.passed == false && c1.candidate.failedChecks.map(\.name) == ["c"])
        let c10 = arm.passToFail[2]
        #expect(c10.candidate.error?.kind == "timeout" && c10.candidate.output == nil)
        let c9 = arm.failToPass[1]
        #expect(c9.baseline.error?.kind == "timeout" && c9.candidate.passed == true)
    }

    @Test("the limit cuts the lists, never the counts")
    func limit() throws {
        let (baseline, candidate) = Self.runs()
        let flips = CaseFlips.find(baselineRunID: "base", baseline: baseline, candidateRunID: "cand", candidate: candidate, limit: 1)
        let arm = try #require(flips.arms.first)
        #expect(arm.passToFail.map(\.caseID) == ["c1"] && arm.omittedPassToFail == 2)
        #expect(arm.failToPass.map(\.caseID) == ["c3"] && arm.omittedFailToPass == 1)
        #expect(arm.passToFail[0].baseline.output == "out c1", "baseline outputs are filled for the listed cases")
    }

    @Test("streamed from the store it equals the in-memory result; an unknown run is an error")
    func fromStore() async throws {
        let (baseline, candidate) = Self.runs()
        try await F.withTemporaryDirectory { directory in
            let store = try await F.store(in: directory, runs: [(F.run("base"), baseline), (F.run("cand"), candidate)])
            let stored = try await CaseFlips.find(store: store, baselineRunID: "base", candidateRunID: "cand", limit: 2)
            let memory = CaseFlips.find(baselineRunID: "base", baseline: baseline, candidateRunID: "cand", candidate: candidate, limit: 2)
            #expect(stored == memory)
            await #expect(throws: ReportError.runNotFound("nope")) {
                try await CaseFlips.find(store: store, baselineRunID: "nope", candidateRunID: "cand")
            }
        }
    }

    @Test("against a baseline report.json: the same flips from its per-case pass/fail, without baseline texts")
    func fromBaselineReport() async throws {
        let (baseline, candidate) = Self.runs()
        let report = ReportBuilder().build(runID: "base", run: nil, results: baseline)
        try await F.withTemporaryDirectory { directory in
            let store = try await F.store(in: directory, runs: [(F.run("cand"), candidate)])
            let flips = try await CaseFlips.find(store: store, baseline: report, candidateRunID: "cand")
            let arm = try #require(flips.arms.first)
            #expect(flips.arms.map(\.armID) == ["v@m"] && flips.baselineRunID == "base")
            #expect(arm.passToFail.map(\.caseID) == ["c1", "c2", "c10"] && arm.failToPass.map(\.caseID) == ["c3", "c9"])
            #expect(arm.passToFail[0].baseline.passed == true && arm.passToFail[0].baseline.output == nil)
            #expect(arm.passToFail[0].candidate.output == "out c1")
        }
    }
}
