import HybridReport
import HybridStore

/// One run: what it ran, then per feature the report's own section (arm table with intervals, charts,
/// comparisons, worst cases) from the same `RunReport` model and renderer as `hybrid report`, with a link to the
/// feature's case grid.
struct RunPage: Sendable {
    var run: RunRecord
    var report: RunReport

    static func load(_ query: QueryParameters, catalog: ViewCatalog) async throws -> RunPage {
        let run = try await catalog.run(query["id"])
        return RunPage(run: run, report: try await catalog.report(of: run.id))
    }

    func render() -> String {
        var body = HTML()
        body.element("h1") { h1 in
            h1.text("Run ")
            h1.element("code", text: run.id)
        }
        body.element("p", [("class", "meta")]) { p in
            var parts = ["status \(run.status.rawValue)", "dataset \(run.datasetPath)", "started \(RunsPage.timestamp(run.startedAt))"]
            if let version = run.configVersion { parts.append("config v\(version)") }
            parts.append("\(report.resultCount) of \(run.plannedCount) results")
            p.text(parts.joined(separator: " · "))
        }
        let renderer = HTMLReportRenderer()
        body.append(HTML(trusted: renderer.judgeSection(report)))
        for feature in report.features {
            body.element("p", [("class", "grid-link")]) { p in
                p.element("a", [("href", ViewLink("/grid", [("run", run.id), ("feature", feature.feature)]).href)]) {
                    $0.text("Every case of \(feature.feature), arm by arm →")
                }
            }
            body.append(HTML(trusted: renderer.featureSection(feature)))
        }
        return PageLayout.document(title: run.id, breadcrumbs: [PageLayout.home, (run.id, nil)], body: body)
    }
}
