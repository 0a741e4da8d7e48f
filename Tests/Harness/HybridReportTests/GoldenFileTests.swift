import Foundation
import HybridReport
import Testing

/// Markdown and JSON of the fixed run against committed golden files. After an intended change, regenerate with
/// `UPDATE_GOLDEN=1 swift test --filter GoldenFileTests` and review the diff.
@Suite("Golden files")
struct GoldenFileTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    /// The fixed run with gates and a baseline (an earlier run of the same arms), so every section renders; the
    /// current run also has an arm that was never sent (no API key), which must appear once as not measured.
    static func fullReport() throws -> RunReport {
        let neverSent = (1...40).map { index in
            ReportFixtures.result(
                run: ReportFixtures.runID, feature: "summarize", caseID: String(format: "s-%02d", index),
                arm: "terse@claude-haiku", passed: nil, error: "unavailable", message: "claude-haiku: unavailable: ANTHROPIC_API_KEY not set")
        }
        var report = ReportBuilder().build(
            runID: ReportFixtures.runID, run: ReportFixtures.run(), results: ReportFixtures.results() + neverSent)
        let baselineArms = ReportFixtures.arms.map { arm -> ReportFixtures.Arm in
            var arm = arm
            arm.scoreBase += 0.05
            return arm
        }
        let baselineResults = ReportFixtures.results(runID: "baseline-run", arms: baselineArms, seed: 11)
        let baseline = ReportBuilder().build(
            runID: "baseline-run", run: ReportFixtures.run("baseline-run"), results: baselineResults
        )
        report.baseline = BaselineComparator.compare(current: report, baseline: baseline, source: "store", options: ReportOptions())
        report.baseline?.flips = CaseFlips.find(
            baselineRunID: "baseline-run", baseline: baselineResults, candidateRunID: ReportFixtures.runID,
            candidate: ReportFixtures.results(), limit: 2)
        let gates = GateSpec(
            features: [
                "*": ["*": GateThresholds(minAdherenceLower: 0.6)],
                "summarize": [
                    "*": GateThresholds(minQuality: ["rouge_l": 0.4], maxP95TotalMs: 1_500),
                    "@gpt-4o-mini": GateThresholds(maxCostPer1k: 0.2),
                ],
            ],
            regression: RegressionRule(mode: .significant)
        )
        report.gates = GateEvaluator.evaluate(report: report, gates: gates, baseline: baseline)
        return report
    }

    static func check(_ actual: String, file name: String) throws {
        let url = directory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url)
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        if actual != expected {
            let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let first = zip(actualLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }
            Issue.record("""
                \(name) differs from the golden file (line \((first?.offset ?? min(actualLines.count, expectedLines.count)) + 1)):
                expected: \(first.map { String($0.element.1) } ?? "<end>")
                actual:   \(first.map { String($0.element.0) } ?? "<end>")
                Regenerate with UPDATE_GOLDEN=1 if the change is intended.
                """)
        }
    }

    @Test("report.md of the fixed run matches the golden file")
    func markdown() throws {
        try Self.check(MarkdownReportRenderer().render(try Self.fullReport()), file: "report.md")
    }

    @Test("report.json of the fixed run matches the golden file and decodes back to the same report")
    func json() throws {
        let report = try Self.fullReport()
        let data = try report.jsonData()
        try Self.check(String(decoding: data, as: UTF8.self), file: "report.json")
        let decoded = try RunReport.decode(data, path: "report.json")
        #expect(decoded == report)
        #expect(decoded.schemaVersion == RunReport.currentSchemaVersion)
    }

    @Test("the Markdown figures are the JSON figures: every adherence, score and latency cell comes from the report")
    func markdownFiguresComeFromJSON() throws {
        let report = try Self.fullReport()
        let markdown = MarkdownReportRenderer().render(report)
        for feature in report.features {
            for arm in feature.arms {
                if let adherence = arm.adherence {
                    #expect(markdown.contains(String(format: "%.1f%% [%.1f, %.1f] (%d/%d)", adherence.rate * 100,
                        adherence.lower * 100, adherence.upper * 100, adherence.passed, adherence.total)))
                }
                for score in arm.quality {
                    #expect(markdown.contains(String(format: "%.3f [%.3f, %.3f]", score.mean, score.lower ?? 0, score.upper ?? 0)))
                }
            }
            for comparison in feature.comparisons {
                #expect(markdown.contains(comparison.verdict))
            }
        }
        for failure in report.gates?.failures ?? [] {
            #expect(markdown.contains(failure.message))
        }
    }

    @Test("a report too long for a PR comment drops worst cases first and says so")
    func markdownSizeLimit() throws {
        let report = try Self.fullReport()
        let full = MarkdownReportRenderer().render(report)
        let limited = MarkdownReportRenderer(maximumCharacters: full.count - 1).render(report)
        #expect(limited.count < full.count)
        #expect(limited.contains("Worst cases omitted"))
        #expect(limited.contains("### Gates"))
    }

    @Test("a baseline from a newer schema is refused with an actionable message")
    func newerSchemaRefused() throws {
        let data = Data(#"{"schemaVersion": 99}"#.utf8)
        #expect(throws: ReportError.unsupportedSchemaVersion(path: "b.json", found: 99, supported: RunReport.currentSchemaVersion)) {
            try RunReport.decode(data, path: "b.json")
        }
    }

    @Test("a baseline whose bytes are not UTF-8 is refused naming the file, not read with replacement characters")
    func invalidUTF8Refused() throws {
        var data = try Self.fullReport().jsonData()
        data[data.firstIndex(of: UInt8(ascii: "\""))! + 1] = 0xFF  // inside the first key: only the encoding is wrong
        let error = try #require(throws: ReportError.self) { try RunReport.decode(data, path: "b.json") }
        #expect("\(error)".contains("b.json") && "\(error)".contains("not UTF-8"), "\(error)")
    }
}
