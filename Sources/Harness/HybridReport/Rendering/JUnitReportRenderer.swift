/// Renders gate results as JUnit XML, one `<testcase>` per (arm, gate) grouped in one `<testsuite>` per feature,
/// so CI systems show failed gates natively.
///
/// Failed gates become `<failure>` with the numbers, skipped gates `<skipped>`. Without gates, each arm gets one
/// passing `report` test case carrying its summary, so the file is still a valid, non-empty suite.
public struct JUnitReportRenderer: Sendable {
    /// A renderer.
    public init() {}

    /// The XML document.
    public func render(_ report: RunReport) -> String {
        var suites: [(name: String, cases: [String], failures: Int, skipped: Int)] = []
        for feature in report.features {
            var cases: [String] = []
            var failures = 0
            var skipped = 0
            for arm in feature.arms {
                let results = report.gates?.results.filter { $0.feature == feature.feature && $0.armID == arm.armID } ?? []
                if report.gates == nil {
                    cases.append(testCase(feature: feature.feature, arm: arm.armID, name: "report", body: systemOut(summary(arm))))
                }
                for result in results {
                    let body: String
                    switch result.status {
                    case .passed: body = systemOut(result.message)
                    case .failed:
                        failures += 1
                        body = "<failure message=\"\(escape(result.message))\" type=\"\(escape(result.gate))\">"
                            + escape(failureText(result)) + "</failure>"
                    case .skipped:
                        skipped += 1
                        body = "<skipped message=\"\(escape(result.message))\"/>"
                    }
                    cases.append(testCase(feature: feature.feature, arm: arm.armID, name: result.gate, body: body))
                }
            }
            suites.append((feature.feature, cases, failures, skipped))
        }
        // Regression rules without a baseline produce a feature-less result; keep it visible.
        let orphans = report.gates?.results.filter { result in !report.features.contains { $0.feature == result.feature } } ?? []
        if !orphans.isEmpty {
            let cases = orphans.map { result in
                testCase(
                    feature: result.feature, arm: result.armID, name: result.gate,
                    body: result.status == .failed
                        ? "<failure message=\"\(escape(result.message))\" type=\"\(escape(result.gate))\"/>"
                        : "<skipped message=\"\(escape(result.message))\"/>"
                )
            }
            suites.append(("gates", cases, orphans.filter { $0.status == .failed }.count, orphans.filter { $0.status == .skipped }.count))
        }
        // The judge's reliability: a failure when measured and short, skipped when unmeasured.
        if let judge = report.judgeReliability {
            let body = judge.reliable ? systemOut(judge.sentence)
                : judge.measured ? "<failure message=\"\(escape(judge.sentence))\" type=\"judge_reliability\"/>"
                : "<skipped message=\"\(escape(judge.sentence))\"/>"
            let failed = judge.measured && !judge.reliable
            suites.append(("judge", [testCase(feature: "judge", arm: judge.judge ?? "judge", name: "reliability", body: body)],
                           failed ? 1 : 0, judge.measured ? 0 : 1))
        }
        // Each pair judged pairwise: passed when its judge is shown reliable, failed when its agreement with people
        // was measured and fell short, skipped (not decided on) when unmeasured.
        let section = JudgeSection(report)
        if !section.pairwise.isEmpty {
            var cases: [String] = []
            var failures = 0
            var skips = 0
            for summary in section.pairwise {
                let (trusted, text) = section.verdict(summary)
                let measured = summary.humanAgreement != nil
                if !trusted && measured { failures += 1 }
                if !trusted && !measured { skips += 1 }
                let body = trusted ? systemOut(text)
                    : measured ? "<failure message=\"\(escape(text))\" type=\"pairwise_judge\"/>" : "<skipped message=\"\(escape(text))\"/>"
                cases.append(testCase(feature: "pairwise", arm: "\(summary.armB) vs \(summary.armA)", name: summary.judge, body: body))
            }
            suites.append(("judge.pairwise", cases, failures, skips))
        }
        let tests = suites.reduce(0) { $0 + $1.cases.count }
        let failures = suites.reduce(0) { $0 + $1.failures }
        let skipped = suites.reduce(0) { $0 + $1.skipped }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"hybrid eval \(escape(report.runID))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\">\n"
        for suite in suites {
            out += "  <testsuite name=\"\(escape(suite.name))\" tests=\"\(suite.cases.count)\" failures=\"\(suite.failures)\" errors=\"0\" skipped=\"\(suite.skipped)\">\n"
            for testCase in suite.cases {
                out += "    " + testCase + "\n"
            }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }

    private func testCase(feature: String, arm: String, name: String, body: String) -> String {
        "<testcase classname=\"\(escape(feature)).\(escape(arm))\" name=\"\(escape(name))\">\(body)</testcase>"
    }

    private func systemOut(_ text: String) -> String { "<system-out>\(escape(text))</system-out>" }

    private func failureText(_ result: GateResult) -> String {
        "\(result.feature) \(result.armID) \(result.gate): \(result.message)"
            + (result.actual.map { "; value \(ReportFormatting.number($0))" } ?? "")
            + (result.threshold.map { "; threshold \(ReportFormatting.number($0))" } ?? "")
    }

    private func summary(_ arm: ArmSummary) -> String {
        if let reason = arm.notMeasured { return "not measured: \(reason)" }
        return "n \(arm.count), errors \(arm.errorCount), adherence \(ReportFormatting.proportion(arm.adherence)), "
            + "total ms p50/p95 \(ReportFormatting.p50p95(arm.latency.totalMs))"
    }

    /// XML attribute and text escaping; control characters other than tab/newline are dropped (invalid in XML 1.0).
    private func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
