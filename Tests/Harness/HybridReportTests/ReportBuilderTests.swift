import Foundation
import HybridReport
import HybridStore
import Testing

@Suite("Report builder")
struct ReportBuilderTests {
    typealias F = ReportFixtures

    @Test("per-arm counts: n, errors by kind, cache hits, retries, cold starts, tokens with estimates, cost per 1,000")
    func armCounts() throws {
        let report = F.report()
        let summarize = try #require(report.feature("summarize"))
        #expect(summarize.arms.map(\.armID) == ["terse@gpt-4o-mini", "terse@local-smollm2", "verbose@gpt-4o-mini"])
        let local = try #require(summarize.arm("terse@local-smollm2"))
        #expect(local.count == 40)
        #expect(local.errorCount == 2)
        #expect(local.errorsByKind == ["timeout": 2])
        #expect(local.coldStarts == 1)
        #expect(local.tokens.estimatedCount == 38)
        #expect(local.cost == nil)
        #expect(local.tier == "on-device")
        let cloud = try #require(summarize.arm("terse@gpt-4o-mini"))
        #expect(cloud.cacheHits == 2)
        #expect(cloud.retried == 1)
        let cost = try #require(cloud.cost)
        #expect(cost.pricedCount == 40)
        #expect(abs(cost.totalUSD - 0.0048) < 1e-12)
        #expect(abs(cost.per1kRequestsUSD - 0.12) < 1e-9)
        #expect(report.resultCount == 170)
    }

    @Test("an arm that was never sent (every result unavailable) is listed but not compared or ranked")
    func unavailableArmsAreNotCompared() throws {
        var results: [ResultRecord] = []
        for i in 0..<12 {
            results.append(F.result(caseID: "c\(i)", arm: "v@local", passed: i % 3 != 0, score: 0.5))
            results.append(F.result(caseID: "c\(i)", arm: "v@cloud", error: "unavailable"))
        }
        let report = ReportBuilder().build(runID: "r", run: nil, results: results)
        let feature = try #require(report.feature("f"))
        #expect(feature.arms.map(\.armID) == ["v@cloud", "v@local"])
        let cloud = try #require(feature.arm("v@cloud"))
        #expect(cloud.errorsByKind == ["unavailable": 12])
        #expect(cloud.notMeasured == "failed")
        #expect(cloud.adherence == nil && cloud.constraints.isEmpty && cloud.quality.isEmpty && cloud.cases == nil)
        #expect(feature.bestArm == "v@local")
        #expect(feature.comparisons.allSatisfy { $0.first != "v@cloud" && $0.second != "v@cloud" })
        #expect(feature.worstCases.allSatisfy { $0.armID != "v@cloud" })
        #expect(feature.sideBySide?.isEmpty == true, "one measured arm: nothing to pair")
    }

    @Test("the never-sent reason is the stored message without the runner's MODEL: unavailable: prefix")
    func notMeasuredReason() throws {
        let results = (0..<3).map {
            F.result(caseID: "c\($0)", arm: "v@gpt", error: "unavailable", message: "gpt: unavailable: OPENAI_API_KEY not set")
        }
        let arm = try #require(ReportBuilder().build(runID: "r", run: nil, results: results).features.first?.arms.first)
        #expect(arm.notMeasured == "OPENAI_API_KEY not set")
    }

    @Test("side by side: disagreements first, then both failing, then the largest score gap; capped with a count")
    func sideBySide() throws {
        var results: [ResultRecord] = []
        for i in 0..<12 {
            // a passes everything and scores 0.9; b fails c2, c5 and c9, errors on c7; both fail c11.
            results.append(F.result(caseID: "c\(i)", arm: "v@a", passed: i != 11, score: 0.9))
            results.append(F.result(
                caseID: "c\(i)", arm: "v@b", passed: ![2, 5, 9, 11].contains(i), score: i == 4 ? 0.1 : 0.8,
                error: i == 7 ? "timeout" : nil))
        }
        let options = ReportOptions(pairs: [ArmPair("v@a", "v@b")], sideBySideCasesPerPair: 6)
        let feature = try #require(ReportBuilder(options: options).build(runID: "r", run: nil, results: results).features.first)
        let pair = try #require(feature.sideBySide?.first)
        #expect(pair.first == "v@a" && pair.second == "v@b")
        #expect(pair.pairedCount == 12 && pair.disagreeCount == 4)
        #expect(pair.cases.map(\.caseID) == ["c2", "c5", "c7", "c9", "c11", "c4"])
        #expect(pair.omittedCount == 6)
        let c2 = pair.cases[0]
        #expect(c2.first.passed == true && c2.first.output == "out c2" && c2.first.input == "in c2")
        #expect(c2.second.passed == false && c2.second.failedChecks.map(\.name) == ["c"])
        #expect(pair.cases[2].second.error?.kind == "timeout")
    }

    @Test("latency excludes cache hits, retries, cold starts and errors; cold starts are summarised apart")
    func latencyExclusions() throws {
        let results = [
            F.result(caseID: "a", totalMs: 100), F.result(caseID: "b", totalMs: 200), F.result(caseID: "c", totalMs: 300),
            F.result(caseID: "d", totalMs: 9_000, cacheHit: true), F.result(caseID: "e", totalMs: 9_000, retries: 2),
            F.result(caseID: "f", totalMs: 9_000, coldStart: true), F.result(caseID: "g", totalMs: 9_000, error: "timeout"),
        ]
        let report = ReportBuilder().build(runID: "r", run: nil, results: results)
        let latency = try #require(report.features.first?.arms.first?.latency)
        #expect(latency.sampleCount == 3)
        #expect(latency.totalMs?.p50 == 200)
        #expect(latency.totalMs?.max == 300)
        #expect(latency.excludedCacheHits == 1)
        #expect(latency.excludedRetried == 1)
        #expect(latency.excludedColdStarts == 1)
        #expect(latency.excludedErrors == 1)
        #expect(latency.coldStartTotalMs?.count == 1)
        #expect(latency.coldStartTotalMs?.p50 == 9_000)
        #expect(latency.totalMs?.quantiles?.count == 21)
    }

    @Test("errors count as adherence failures, overall and per constraint, with a Wilson interval")
    func adherenceCountsErrors() throws {
        let results = [
            F.result(caseID: "a"), F.result(caseID: "b"), F.result(caseID: "c", passed: false),
            F.result(caseID: "d", passed: nil, error: "rate_limited"),
        ]
        let arm = try #require(ReportBuilder().build(runID: "r", run: nil, results: results).features.first?.arms.first)
        let adherence = try #require(arm.adherence)
        #expect(adherence.passed == 2)
        #expect(adherence.total == 4)
        let wilson = try #require(WilsonInterval(successes: 2, trials: 4))
        #expect(adherence.lower == wilson.lower)
        #expect(adherence.upper == wilson.upper)
        #expect(arm.constraints.first?.proportion.total == 4)
        #expect(arm.cases?.adherence == [1, 1, 0, 0])
    }

    @Test("a feature without constraints has no adherence, even with errors")
    func noConstraintsNoAdherence() throws {
        let results = [F.result(caseID: "a", passed: nil, score: 0.5), F.result(caseID: "b", passed: nil, error: "timeout")]
        let arm = try #require(ReportBuilder().build(runID: "r", run: nil, results: results).features.first?.arms.first)
        #expect(arm.adherence == nil)
        #expect(arm.cases?.adherence == [nil, nil])
    }

    @Test("pairing uses only cases both arms scored; discordant counts feed McNemar")
    func pairingDropsUnscorable() throws {
        var results: [ResultRecord] = []
        for i in 0..<10 {
            // Arm A passes everything; arm B fails cases 0–5. Case 9 is missing from B; case 8 errored on A
            // (an adherence failure, and unscorable for quality).
            if i == 8 {
                results.append(F.result(caseID: "c\(i)", arm: "a@m", passed: nil, error: "timeout"))
            } else {
                results.append(F.result(caseID: "c\(i)", arm: "a@m", passed: true, score: 0.9))
            }
            if i != 9 {
                results.append(F.result(caseID: "c\(i)", arm: "b@m", passed: i > 5, score: 0.5))
            }
        }
        let options = ReportOptions(pairs: [ArmPair("a@m", "b@m")])
        let feature = try #require(ReportBuilder(options: options).build(runID: "r", run: nil, results: results).features.first)
        let adherence = try #require(feature.comparisons.first { $0.metric == "adherence" })
        #expect(adherence.count == 9)
        #expect(adherence.firstOnlyPassed == 6)
        #expect(adherence.secondOnlyPassed == 1)
        #expect(adherence.pValue == McNemarExactTest(b: 6, c: 1)?.pValue)
        let quality = try #require(feature.comparisons.first { $0.metric == "quality:q" })
        #expect(quality.count == 8)
        #expect(abs(quality.difference - 0.4) < 1e-12)
    }

    @Test("without named pairs the best arm is compared with each other arm, Holm-adjusted across the report")
    func bestArmComparisonsAreHolmAdjusted() throws {
        let report = F.report()
        let summarize = try #require(report.feature("summarize"))
        #expect(summarize.bestArm == "terse@gpt-4o-mini")
        #expect(Set(summarize.comparisons.map(\.second)) == ["terse@local-smollm2", "verbose@gpt-4o-mini"])
        #expect(summarize.comparisons.allSatisfy { $0.first == "terse@gpt-4o-mini" })
        let all = report.features.flatMap(\.comparisons)
        let expected = HolmCorrection.adjustedPValues(all.map { $0.pValue ?? .nan })
        #expect(all.map(\.adjustedPValue) == expected)
        #expect(all.contains { $0.adjustedPValue! > $0.pValue! })
    }

    @Test("no winner is named when the interval spans zero; the sentence gives n and the MDE")
    func verdictWording() throws {
        let report = F.report()
        let summarize = try #require(report.feature("summarize"))
        // terse vs verbose on gpt-4o-mini: score bases 0.45 vs 0.46 with the same noise stream — no detectable difference.
        let close = try #require(summarize.comparisons.first { $0.metric == "quality:rouge_l" && $0.second == "verbose@gpt-4o-mini" })
        #expect(close.outcome == "no-detectable-difference")
        #expect(close.verdict.contains("no detectable difference at n = \(close.count)"))
        #expect(close.verdict.contains("MDE"))
        #expect((close.lower ?? 1) <= 0 && (close.upper ?? -1) >= 0)
        // Cloud vs local: rouge 0.45 vs 0.30 base — a detectable win, and the wording names it.
        let far = try #require(summarize.comparisons.first { $0.metric == "quality:rouge_l" && $0.second == "terse@local-smollm2" })
        #expect(far.outcome == "first-better")
        #expect(far.verdict.hasPrefix("terse@gpt-4o-mini better than terse@local-smollm2"))
        #expect((far.lower ?? 0) > 0)
        #expect(far.method == "percentile-bootstrap")
    }

    @Test("worst cases: errors first, then constraint failures, then lowest scores, with input, output and the failing check")
    func worstCases() throws {
        let report = F.report()
        let summarize = try #require(report.feature("summarize"))
        let local = summarize.worstCases.filter { $0.armID == "terse@local-smollm2" }
        #expect(local.count == 5)
        #expect(local.prefix(2).map(\.reason) == ["error", "error"])
        #expect(local.prefix(2).map(\.caseID) == ["s-08", "s-20"])
        #expect(local[2].reason == "constraint-failed")
        #expect(local[2].failedConstraints.first?.message == "312 characters, limit 280")
        #expect(local[2].failedConstraints.first?.observed == "312")
        #expect(local[2].input?.contains("Summarise") == true)
        #expect(local[2].output?.contains("Output for") == true)
        #expect(local[0].error?.kind == "timeout")
    }

    @Test("streaming from the SQLite store gives the same report as building in memory")
    func storeMatchesMemory() async throws {
        try await F.withTemporaryDirectory { directory in
            let store = try await F.store(in: directory)
            let streamed = try await ReportBuilder().build(store: store, runID: F.runID)
            #expect(streamed == F.report())
        }
    }

    @Test("an unknown run is an error that says how to find runs")
    func unknownRun() async throws {
        try await F.withTemporaryDirectory { directory in
            let store = try await F.store(in: directory)
            await #expect(throws: ReportError.runNotFound("nope")) {
                try await ReportBuilder().build(store: store, runID: "nope")
            }
        }
    }

    @Test("quality vs cost: dominated arms are off the Pareto front")
    func paretoFront() throws {
        let summarize = try #require(F.report().feature("summarize"))
        // terse@gpt-4o-mini is cheaper than verbose with about the same quality; local has no price.
        #expect(summarize.arm("terse@gpt-4o-mini")?.paretoOptimal == true)
        #expect(summarize.arm("terse@local-smollm2")?.paretoOptimal == nil)
        let verbose = try #require(summarize.arm("verbose@gpt-4o-mini"))
        let terse = try #require(summarize.arm("terse@gpt-4o-mini"))
        let verboseDominated = (terse.quality("rouge_l")?.mean ?? 0) >= (verbose.quality("rouge_l")?.mean ?? 0)
        #expect(verbose.paretoOptimal == !verboseDominated)
    }
}
