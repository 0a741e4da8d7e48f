import Foundation
import HybridRecommend
import HybridStore
import HybridTestSupport
import Testing
import HybridProjectTestSupport

/// `hybrid view` as a person uses it: the real CLI serving a store with two runs on port 0, pages loaded by
/// headless Chromium, and assertions on the DOM it built (plus one screenshot).
@Suite("hybrid view in Chromium")
struct ViewChromiumTests {
    typealias F = ViewFixture

    @Test("every case of both runs with each arm's output and checks; a filter; a word diff; flipped cases")
    func gridFilterDiff() async throws {
        try await F.with { fixture in
            // A pairwise judgement stored with the candidate run, which its page must show with the judge's standing.
            let store = try SQLiteResultStore(path: fixture.databasePath)
            for item in F.cases {
                try await store.savePairwiseVerdict(PairwiseVerdictRecord(
                    runID: F.candidateRun, feature: F.feature, caseID: item.id, armID: F.bullets, baselineArmID: F.terse,
                    judge: "referee", outcome: item.id == "c1" ? .inconsistent : .baseline, rawAnswers: ["B", "A"],
                    judgeTokens: 40, judgeCostUSD: 0))
            }
            let server = try await ViewServerProcess.start(database: fixture.databasePath, in: fixture.directory)
            defer { server.stop() }
            let chromium = try HeadlessChromium(workDirectory: fixture.directory)

            let runs = try await chromium.dumpDOM(server.url("/"))
            #expect(runs.contains("data-run=\"\(F.baselineRun)\"") && runs.contains("data-run=\"\(F.candidateRun)\""))

            for run in [F.baselineRun, F.candidateRun] {
                let grid = try await chromium.dumpDOM(server.url("/grid?run=\(run)"))
                try Self.expectEveryCase(of: run, in: grid)
            }

            let failing = try await chromium.dumpDOM(server.url("/grid?run=\(F.candidateRun)&failing=1"))
            let failingCases = F.cases.filter { !F.passes($0, F.terse, in: F.candidateRun) || !F.passes($0, F.bullets, in: F.candidateRun) }
            #expect(failingCases.map(\.id) == ["c2"])
            #expect(Self.rowCount(failing) == 1)
            #expect(failing.contains("data-case=\"c2\"") && !failing.contains("data-case=\"c1\""))
            #expect(failing.contains("1 of 4 cases match"))

            let search = try await chromium.dumpDOM(server.url("/grid?run=\(F.candidateRun)&q=museum+opens"))
            #expect(Self.rowCount(search) == 1 && search.contains("data-case=\"c4\""))

            // Open the diff the filtered grid links to, as a click would.
            let href = try #require(failing.firstMatch(of: /class="diff-link" href="([^"]+)"/)?.output.1)
            let diff = try await chromium.dumpDOM(server.url(String(href).replacingOccurrences(of: "&amp;", with: "&")))
            // The default pair is the first two measured arms: bullets → terse; words only in terse are inserted.
            #expect(diff.contains(/<ins>[^<]*French city of[^<]*<\/ins>/))
            #expect(diff.contains(/<del>[^<]*&lt;b&gt;bold&lt;\/b&gt;[^<]*<\/del>/))
            #expect(diff.contains("data-arm=\"\(F.terse)\"") && diff.contains("data-arm=\"\(F.bullets)\""))
            #expect(diff.contains("&lt;b&gt;bold&lt;/b&gt;") && !diff.contains("<b>bold</b>"), "model output is text, never markup")

            // The run page embeds the report's own arm table.
            let runPage = try await chromium.dumpDOM(server.url("/run?id=\(F.candidateRun)"))
            #expect(runPage.contains("<table class=\"arms\">") && runPage.contains("<td><code>\(F.terse)</code>"))
            #expect(runPage.contains("<h2>Pairwise judgement</h2>"))
            #expect(runPage.contains("<td>\(F.bullets) vs \(F.terse)</td><td>referee</td><td>0</td><td>3</td><td>0</td><td>1</td>"), "\(runPage)")
            #expect(runPage.contains("data-pairwise-trusted=\"false\""), "no labels: not to be decided on")

            // Baseline → candidate: terse flipped c2 pass→fail and c3 fail→pass; pass→fail is listed first.
            let compare = try await chromium.dumpDOM(server.url("/compare?baseline=\(F.baselineRun)&candidate=\(F.candidateRun)"))
            let passToFail = try #require(compare.range(of: "class=\"flip pass-to-fail\" data-case=\"c2\""))
            let failToPass = try #require(compare.range(of: "class=\"flip fail-to-pass\" data-case=\"c3\""))
            #expect(passToFail.lowerBound < failToPass.lowerBound)
            #expect(compare.components(separatedBy: "class=\"flip ").count - 1 == 2, "bullets flipped nothing; the cloud arm is not measured")
            for run in [F.baselineRun, F.candidateRun] {
                #expect(compare.contains(F.cases[1].outputs[run]![F.terse]!), "both outputs of c2, \(run)")
            }

            let screenshot = fixture.directory.appendingPathComponent("grid.png")
            let status = try await chromium.screenshot(server.url("/grid?run=\(F.candidateRun)"), to: screenshot, width: 1400, height: 1100)
            #expect(status == 0)
            let png = try Data(contentsOf: screenshot)
            #expect(png.count > 20_000, "a blank page compresses to a few kilobytes")
            if let keep = ProcessInfo.processInfo.environment["HYBRID_VIEW_SCREENSHOT"] {
                try? FileManager.default.removeItem(atPath: keep)
                try FileManager.default.copyItem(at: screenshot, to: URL(fileURLWithPath: keep))
            }
        }
    }

    @Test("the rollouts page: where each rollout stands, its guardrail intervals over time and every decision")
    func rolloutsPage() async throws {
        try await F.with { fixture in
            let start = Date(timeIntervalSince1970: 1_800_000_000)
            var state = RolloutState(
                feature: "summarize", arm: "<b>bullet</b>", destination: "file:///tmp/hybrid.json", stage: 0, percentage: 10,
                stageVersion: 2, stageStartedAt: start)
            state = state.applying(
                RolloutDecision(at: start, action: .start, stage: 0, percentage: 10, configVersion: 2, reason: "first stage"),
                version: 2, at: start)
            let breach = GuardrailFigure(metric: "errorRate", difference: 0.11, lower: 0.04, upper: 0.18, tolerance: 0, breached: true)
            let rollBack = RolloutDecision(
                at: start.addingTimeInterval(3_600), action: .rollBack, stage: 0, percentage: 0, configVersion: 3,
                reason: "errorRate shown worse than the control beyond tolerance", guardrails: [breach], armInstalls: 53, controlInstalls: 547)
            state = state.recording(rollBack, bounds: [:]).applying(rollBack, version: 3, at: rollBack.at)
            let store = try SQLiteFieldEventStore(path: fixture.databasePath)
            _ = try await store.saveRollout(feature: "summarize", body: try state.encoded(), replacing: nil)

            let server = try await ViewServerProcess.start(database: fixture.databasePath, in: fixture.directory)
            defer { server.stop() }
            let chromium = try HeadlessChromium(workDirectory: fixture.directory)
            let page = try await chromium.dumpDOM(server.url("/rollouts"))
            #expect(page.contains("rolledBack at 0 %, config v3"), "\(page)")
            #expect(page.contains("data-action=\"start\"") && page.contains("data-action=\"rollBack\""))
            #expect(page.contains("+0.11 [0.04, 0.18] breach") && page.contains("53 / 547"))
            #expect(page.contains("&lt;b&gt;bullet&lt;/b&gt;") && !page.contains("<b>bullet</b>"), "names are text, never markup")
            #expect(try await chromium.dumpDOM(server.url("/")).contains("href=\"/rollouts\""))
        }
    }

    /// Each case's row with its input and reference, and each arm's output, verdict and failing reason.
    static func expectEveryCase(of run: String, in dom: String) throws {
        #expect(rowCount(dom) == F.cases.count, "\(run)")
        for item in F.cases {
            #expect(dom.contains("data-case=\"\(item.id)\""), "\(run) \(item.id)")
            #expect(dom.contains(item.input) && dom.contains(item.reference), "\(run) \(item.id) input and reference")
            for arm in [F.terse, F.bullets] {
                let output = item.outputs[run]![arm]!
                let escaped = output.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                    .replacingOccurrences(of: ">", with: "&gt;")
                #expect(dom.contains(escaped), "\(run) \(item.id) \(arm) output")
                if !F.passes(item, arm, in: run) {
                    #expect(dom.contains("max_words: \(F.words(output)) words, limit \(F.wordLimit)"), "\(run) \(item.id) \(arm)")
                }
            }
        }
        #expect(dom.components(separatedBy: "data-check=\"max_words\"").count - 1 == F.cases.count * 2)
        #expect(dom.components(separatedBy: "OPENAI_API_KEY not set").count - 1 == 1, "the never-sent cloud arm is named once, not per case")
        #expect(dom.contains("not measured (never sent): "))
        #expect(dom.contains("data-arm=\"\(F.cloud)\""))
    }

    static func rowCount(_ dom: String) -> Int {
        dom.components(separatedBy: "<tr class=\"case").count - 1
    }
}
