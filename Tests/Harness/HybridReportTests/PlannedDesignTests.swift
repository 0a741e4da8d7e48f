import Foundation
@testable import HybridReport
import HybridStore
import Testing

/// #68 item 3: which design governs a reading of a field run under a planned horizon (planned look, off the plan,
/// past the horizon), what the planned looks decide, and the refusal of a changed design.
@Suite("Planned-horizon design")
struct PlannedDesignTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let design = FieldDesign(horizon: .days(7), looks: 7, spending: .obrienFleming)

    /// `installs` installs per arm, one event a day each on days 0..<`days`; `brief` passes its checks at
    /// `briefPass` in 10, `concise` at 6 in 10.
    static func events(installs: Int, days: Int, briefPass: Int = 6) -> [FieldEventRecord] {
        var out: [FieldEventRecord] = []
        for day in 0..<days {
            for arm in ["brief", "concise"] {
                for index in 0..<installs {
                    let pass = arm == "brief" ? briefPass : 6
                    out.append(
                        FieldEventRecord(
                            eventID: "\(arm)-\(index)-\(day)", occurredAt: start.addingTimeInterval(Double(day) * 86_400 + Double(index)),
                            installID: "\(arm)-i\(index)", feature: "summarize", configVersion: 4, rolloutArm: arm, bucket: index,
                            variant: arm, servedBy: "cloud", servedTier: "third-party", outcome: "served", errorKind: nil,
                            attemptCount: 1, fellBack: false, ttftMs: nil, latencyMs: Double(100 + (index * 7 + day) % 40),
                            inputTokens: 10, outputTokens: 5, tokensEstimated: false, costUSD: 0.0001, checksTotal: 1,
                            failedChecks: (index + day) % 10 < pass ? [] : ["max_words"], cacheHit: false))
                }
            }
        }
        return out
    }

    static func builder(_ design: FieldDesign? = design) -> FieldReportBuilder {
        var builder = FieldReportBuilder(percentages: ["concise": 50, "brief": 50], control: "concise")
        builder.describesQuantiles = false
        builder.design = design
        return builder
    }

    /// Reads the run at each of `days` (days since the first event), keeping the looks as the store does.
    static func read(_ events: [FieldEventRecord], at days: [Double], builder: FieldReportBuilder = builder())
        -> [(analysis: FieldAnalysis, look: FieldLook?)]
    {
        var history: [FieldLook] = []
        var out: [(analysis: FieldAnalysis, look: FieldLook?)] = []
        for day in days {
            let now = start.addingTimeInterval(day * 86_400)
            let seen = events.filter { $0.occurredAt <= now }
            let read = builder.analyzedLook(
                runID: "field-summarize-v4", feature: "summarize", configVersion: 4, events: seen, history: history, now: now)
            if let look = read.look { history.append(look) }
            out.append(read)
        }
        return out
    }

    @Test("a reading on or after a planned day is that planned look; between looks and past the horizon it is off the plan")
    func positions() throws {
        let readings = Self.read(Self.events(installs: 30, days: 8), at: [0.5, 1, 2.5, 3, 3.2, 5.5, 7, 7.5])
        let positions = readings.map { $0.analysis.design?.position ?? "?" }
        #expect(positions == [
            "off the plan (before planned look 1)", "planned look 1 of 7, t 0.14", "planned look 2 of 7, t 0.36",
            "planned look 3 of 7, t 0.43", "off the plan (between planned looks 3 and 4)", "planned look 5 of 7, t 0.79",
            "planned look 7 of 7, t 1", "off the plan (past the horizon: all 7 planned looks taken)",
        ])
        // The look keeps the plan: its index and fraction (nil off the plan), z per comparison only at planned looks.
        let third = try #require(readings[3].look?.plan)
        #expect(third.look == 3 && abs((third.fraction ?? 0) - 3.0 / 7) < 1e-12 && third.since == Self.start.addingTimeInterval(43_200))
        #expect(readings[3].look?.entries.allSatisfy { $0.z != nil } == true)
        #expect(readings[4].look?.plan?.look == nil && readings[4].look?.entries.allSatisfy { $0.z == nil } == true)
        #expect(readings[6].look?.plan?.fraction == 1)
    }

    @Test("the same events read again later are the same look, not a later one at a larger t")
    func readAgain() {
        let readings = Self.read(Self.events(installs: 30, days: 4), at: [3.5, 5.2])
        #expect(readings.map { $0.analysis.design?.position ?? "?" } == [
            "planned look 3 of 7, t 0.5", "planned look 3 of 7, t 0.5 (read again, no new events)",
        ])
    }

    @Test("an installs horizon counts installs reached: planned looks at 20, 40 and 60 installs")
    func installsHorizon() {
        let design = FieldDesign(horizon: .installs(60), looks: 3, spending: .pocock)
        func position(_ installs: Double, taken: [(number: Int, fraction: Double)] = []) -> String {
            PlannedLookGovernor.position(design: design, progress: installs, taken: taken).text
        }
        #expect(position(19) == "off the plan (before planned look 1)")
        #expect(position(25) == "planned look 1 of 3, t 0.42")
        #expect(position(45, taken: [(1, 25.0 / 60)]) == "planned look 2 of 3, t 0.75")
        #expect(position(50, taken: [(1, 25.0 / 60), (2, 0.75)]) == "off the plan (between planned looks 2 and 3)")
        #expect(position(70, taken: [(1, 25.0 / 60), (2, 0.75)]) == "planned look 3 of 3, t 1")
        #expect(position(80, taken: [(1, 25.0 / 60), (2, 0.75), (3, 1)]) == "off the plan (past the horizon: all 3 planned looks taken)")
        #expect(design.summary(alpha: 0.05).hasPrefix("planned: 3 looks over 60 installs (at 20, 40, 60 installs), pocock spending at α 0.045"))
    }

    @Test("a large effect crosses the boundary at a planned look and the verdict names it; off the plan the always-valid test decides at α·0.1")
    func governingTestIsNamed() throws {
        let events = Self.events(installs: 150, days: 3, briefPass: 9)
        let readings = Self.read(events, at: [3])
        let planned = try #require(readings[0].analysis.comparisons.first { $0.metric == "adherence" })
        #expect(planned.verdict == "better")
        let decided = try #require(planned.decidedBy)
        #expect(decided.hasPrefix("planned look 3 of 7, t 0.43, |z| ") && decided.contains(" ≥ boundary "), "\(decided)")
        #expect(readings[0].analysis.method.contains("Maurer & Bretz"))
        // Read off the plan on fresh data (no planned look before it): only the always-valid test at 0.005 may decide.
        let offPlan = Self.read(events, at: [0.9])[0].analysis
        let adherence = try #require(offPlan.comparisons.first { $0.metric == "adherence" })
        #expect(adherence.verdict == "better")
        #expect(adherence.decidedBy?.hasPrefix("off the plan (before planned look 1): always-valid at α 0.005") == true, "\(adherence.decidedBy ?? "")")
    }

    @Test("a null effect decides nothing, and a verdict held back while its interval excludes 0 says why")
    func nullDecidesNothing() {
        for reading in Self.read(Self.events(installs: 40, days: 8), at: [1, 2, 2.5, 3, 4, 5, 6, 7, 8]) {
            for c in reading.analysis.comparisons where c.sequentialPValue != nil {
                #expect(c.verdict != "better" && c.verdict != "worse", "\(c.metric): \(c.verdict)")
                if let lower = c.sequentialLower, let upper = c.sequentialUpper, lower > 0 || upper < 0 {
                    #expect(c.verdict.hasPrefix("no detectable difference under the planned design ("), "\(c.verdict)")
                }
            }
        }
    }

    @Test("Holm in Maurer & Bretz's form: a rejection passes its level on, and the other boundary is recomputed at it")
    func levelPassesOn() throws {
        let design = FieldDesign(horizon: .days(1), looks: 1, spending: .obrienFleming)
        // One look at t = 1: the boundaries are the fixed-horizon ones at α·0.9/2 (2.29) and then α·0.9 (2.00).
        let governor = PlannedLookGovernor(
            design: design, alpha: 0.05, progress: 1, earlier: [], current: ["a": 3.0, "b": 2.1])
        let statuses = governor.statuses(of: ["a", "b"])
        #expect(statuses["a"]?.rejected == true && abs((statuses["a"]?.level ?? 0) - 0.0225) < 1e-12)
        let b = try #require(statuses["b"])
        #expect(b.rejected && abs(b.level - 0.045) < 1e-12 && abs(b.boundary - NormalDistribution.quantile(1 - 0.0225)) < 1e-3)
        // Alone, b (|z| 2.1 < 2.29) would not be rejected at α·0.9/2.
        let alone = PlannedLookGovernor(design: design, alpha: 0.05, progress: 1, earlier: [], current: ["a": 0.5, "b": 2.1])
        #expect(alone.statuses(of: ["a", "b"])["b"]?.rejected == false)
    }

    @Test("a primary metric gets 0.8 of the planned α over the whole run's comparisons of it; a rejection passes its share on")
    func primaryMetricWeights() throws {
        var design = FieldDesign(horizon: .days(1), looks: 1, spending: .obrienFleming)
        design.primaryMetric = "adherence"
        let key = { (metric: String, segment: String?) in
            FieldLook.Entry.key(arm: "brief", control: "concise", metric: metric, segment: segment)
        }
        let adherence = key("adherence", nil), latency = key("latencyMeanMs", nil), segment = key("adherence", "os=ios")
        let governor = PlannedLookGovernor(
            design: design, alpha: 0.05, progress: 1, earlier: [], current: [adherence: 2.2, latency: 2.6, segment: 0.1])
        let weights = governor.weights(of: [adherence, latency, segment])
        #expect(abs((weights[adherence] ?? 0) - 0.8) < 1e-12 && abs((weights[latency] ?? 0) - 0.1) < 1e-12)
        #expect(abs((weights[segment] ?? 0) - 0.1) < 1e-12, "a segment's comparison is not the whole run's")
        // Adherence at α·0.9·0.8 = 0.036 (|z| 2.10): 2.2 crosses; its 0.8 passes half each to the others, so latency
        // is tested at 0.045·0.5 (|z| 2.28) and crosses with 2.6, which it would not at 0.045·0.1 (|z| 2.84).
        let statuses = governor.statuses(of: [adherence, latency, segment])
        #expect(statuses[adherence]?.rejected == true && abs((statuses[adherence]?.level ?? 0) - 0.036) < 1e-12)
        #expect(statuses[latency]?.rejected == true && abs((statuses[latency]?.level ?? 0) - 0.0225) < 1e-12)
        #expect(statuses[segment]?.rejected == false)
        #expect(design.summary(alpha: 0.05).contains("0.8 of it on adherence"), "a changed primary metric is a changed design")
        #expect(FieldDesign.metrics == FieldMetric.sequential.map(\.name), "the metrics a design may name are the report's")
    }

    @Test("a report with another design than the run's looks were taken under is refused, saying what was planned and when")
    func aChangedDesignIsRefused() throws {
        let looks = Self.read(Self.events(installs: 30, days: 2), at: [1, 2]).compactMap(\.look)
        #expect(looks.count == 2)
        #expect(throws: Never.self) { try Self.builder().checkDesign(runID: "field-summarize-v4", history: looks) }
        let pocock = FieldDesign(horizon: .days(7), looks: 7, spending: .pocock)
        #expect {
            try Self.builder(pocock).checkDesign(runID: "field-summarize-v4", history: looks)
        } throws: { error in
            let text = "\(error)"
            return text.contains("has been read under planned: 7 looks over 7 days") && text.contains("since 2027-01-16T")
                && text.contains("asks for planned: 7 looks over 7 days (days 1, 2, 3, 4, 5, 6, 7), pocock spending")
                && text.contains("It differs in: kept “obrienFleming spending at α 0.045”; asked “pocock spending at α 0.045”")
        }
        #expect(throws: ReportError.self) { try Self.builder(nil).checkDesign(runID: "field-summarize-v4", history: looks) }
        // Looks taken under the always-valid design cannot become planned ones either.
        let alwaysValid = Self.read(Self.events(installs: 30, days: 2), at: [1, 2], builder: Self.builder(nil)).compactMap(\.look)
        #expect(throws: ReportError.self) { try Self.builder().checkDesign(runID: "field-summarize-v4", history: alwaysValid) }
    }
}
