import Foundation
import HybridStore

/// The first page: every run, newest first, with its features, dataset, config version, arms and status, and a
/// form to compare two of them.
struct RunsPage: Sendable {
    struct Entry: Sendable {
        var run: RunRecord
        var layout: RunLayout
    }

    var databasePath: String
    var entries: [Entry]

    static func load(catalog: ViewCatalog) async throws -> RunsPage {
        var entries: [Entry] = []
        for run in try await catalog.store.runs() {
            entries.append(Entry(run: run, layout: try await catalog.layout(of: run.id)))
        }
        return RunsPage(databasePath: catalog.store.database.path, entries: entries)
    }

    func render() -> String {
        var body = HTML()
        body.element("h1", text: "Runs")
        body.element("p", [("class", "meta")]) { meta in
            meta.text("\(entries.count) runs in \(databasePath) (read-only); staged rollouts: ")
            meta.element("a", [("href", ViewLink("/rollouts").href)], text: "rollouts")
        }
        if entries.isEmpty {
            body.element("p", text: "No runs yet: `make run` or `hybrid eval …` stores some.")
        } else {
            body.append(table())
            body.append(compareForm())
        }
        return PageLayout.document(title: "Runs", breadcrumbs: [("runs", nil)], body: body)
    }

    private func table() -> HTML {
        var html = HTML()
        html.element("table", [("class", "runs")]) { table in
            table.element("thead") { head in
                head.element("tr") { tr in
                    for title in ["run", "features", "dataset", "config", "arms", "results", "status", "started", "cases"] {
                        tr.element("th", text: title)
                    }
                }
            }
            table.element("tbody") { body in
                for entry in entries { body.append(row(entry)) }
            }
        }
        return html
    }

    private func row(_ entry: Entry) -> HTML {
        let run = entry.run
        var html = HTML()
        html.element("tr", [("data-run", run.id)]) { tr in
            tr.element("td") { $0.element("a", [("href", ViewLink("/run", [("id", run.id)]).href)]) { $0.element("code", text: run.id) } }
            tr.element("td", text: run.features.joined(separator: ", "))
            tr.element("td", text: run.datasetPath)
            tr.element("td", text: run.configVersion.map { "v\($0)" } ?? "—")
            tr.element("td") { td in
                for (index, arm) in entry.layout.armIDs.enumerated() {
                    if index > 0 { td.text(" ") }
                    td.element("code", text: arm)
                }
            }
            tr.element("td", text: "\(entry.layout.resultCount) of \(run.plannedCount)")
            tr.element("td", text: run.status.rawValue)
            tr.element("td", text: Self.timestamp(run.startedAt))
            tr.element("td") { td in
                for feature in entry.layout.features {
                    td.element("a", [("href", ViewLink("/grid", [("run", run.id), ("feature", feature.name)]).href)], text: feature.name)
                    td.text(" ")
                }
            }
        }
        return html
    }

    private func compareForm() -> HTML {
        var html = HTML()
        guard entries.count > 1 else { return html }
        html.element("h2", text: "Compare two runs")
        html.element("form", [("class", "filters"), ("method", "get"), ("action", "/compare")]) { form in
            for (name, title, preselected) in [("baseline", "baseline", entries[1].run.id), ("candidate", "candidate", entries[0].run.id)] {
                form.element("label") { label in
                    label.text(title + " ")
                    label.element("select", [("name", name)]) { select in
                        for entry in entries {
                            select.element("option", [("value", entry.run.id), ("selected", entry.run.id == preselected ? "" : nil)], text: entry.run.id)
                        }
                    }
                }
            }
            form.element("button", [("type", "submit")], text: "Compare")
        }
        return html
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
