import Foundation
import HybridReport
import HybridTestSupport
import Testing
import HybridProjectTestSupport

/// Renders the fixed run's HTML report in headless Chromium (Debian `chromium`, installed by `make setup`):
/// takes a screenshot and checks the DOM Chromium built has the expected tables, cells and SVG charts.
@Suite("HTML report in Chromium")
struct HTMLChromiumTests {
    @Test("the HTML report renders in headless Chromium with its tables and SVG charts")
    func rendersInChromium() async throws {
        try await ReportFixtures.withTemporaryDirectory { directory in
            let chromium = try HeadlessChromium(workDirectory: directory)
            let report = try GoldenFileTests.fullReport()
            let html = directory.appendingPathComponent("report.html")
            try Data(HTMLReportRenderer().render(report).utf8).write(to: html)
            let screenshot = directory.appendingPathComponent("report.png")
            let status = try await chromium.screenshot(html.absoluteString, to: screenshot)
            #expect(status == 0)
            let png = try Data(contentsOf: screenshot)
            #expect(png.count > 20_000, "a blank page compresses to a few kilobytes")
            #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            if let keep = ProcessInfo.processInfo.environment["HYBRID_REPORT_SCREENSHOT"] {
                try? FileManager.default.removeItem(atPath: keep)
                try FileManager.default.copyItem(at: screenshot, to: URL(fileURLWithPath: keep))
            }

            let dom = try await chromium.dumpDOM(html.absoluteString)
            #expect(dom.contains("<table class=\"arms\">"))
            #expect(dom.components(separatedBy: "<table class=\"arms\">").count - 1 == report.features.count)
            for feature in report.features {
                #expect(dom.contains("<h2>\(feature.feature)</h2>"))
                for arm in feature.arms {
                    #expect(dom.contains("<td><code>\(arm.armID)</code>"))
                }
            }
            let local = try #require(report.feature("summarize")?.arm("terse@local-smollm2")?.adherence)
            #expect(dom.contains(String(format: "%.1f%% [%.1f, %.1f] (%d/%d)", local.rate * 100, local.lower * 100, local.upper * 100, local.passed, local.total)))
            #expect(dom.contains("<svg class=\"chart latency-chart\""))
            #expect(dom.contains("<svg class=\"chart pareto-chart\""))
            #expect(dom.contains("<svg class=\"chart adherence-chart\""))
            #expect(dom.components(separatedBy: "class=\"latency-arm\"").count - 1 == 5)
            #expect(dom.contains("class=\"pareto-front\"") || dom.contains("class=\"pareto-point\""))
            // Model output is text, never markup.
            #expect(dom.contains("&lt;b&gt;bold&lt;/b&gt;"))
            #expect(!dom.contains("<b>bold</b>"))
            #expect(!dom.contains("http://") || !dom.contains("<script"), "no scripts, no network")
        }
    }
}
