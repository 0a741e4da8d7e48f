import HybridRunner
import HybridStore

/// The cases × arms grid of one feature of a run: a row per case (and repeat) with its input and reference, a
/// column per arm with the output and its checks. Filters and paging run in SQL (`CaseFilter`), so a page of a
/// 100,000-result run reads only the results it shows.
struct GridPage: Sendable {
    /// The results of one case and repeat, by arm.
    struct Row: Sendable {
        var caseID: String
        var repeatIndex: Int
        var cells: [String: ResultCell]

        /// True when one measured arm passed and another failed.
        var armsDisagree: Bool {
            let verdicts = Set(cells.values.compactMap(\.passed))
            return verdicts.count > 1
        }
    }

    var run: RunRecord
    var feature: RunLayout.Feature
    var features: [String]
    var parameters: GridParameters
    var totalCases: Int
    var matchingCases: Int
    var rows: [Row]
    var references: CaseReferences

    /// Reads the page the parameters ask for.
    static func load(_ parameters: GridParameters, catalog: ViewCatalog) async throws -> GridPage {
        let run = try await catalog.run(parameters.runID)
        let layout = try await catalog.layout(of: run.id)
        guard let feature = layout.feature(parameters.feature) else {
            throw ViewError.notFound("run \(run.id) has no results" + (parameters.feature.map { " for feature \($0)" } ?? ""))
        }
        let store = catalog.store
        let scope = RunLayout.scope(feature.name, of: layout.features.map(\.name))
        let filter = parameters.caseFilter(feature: scope)
        let offset = (parameters.page - 1) * parameters.pageSize
        let ids: [String]
        var matching = feature.caseCount
        if parameters.isFiltered {
            // A filter has to look at every result anyway: one pass yields both the count and the page.
            let all = try await store.caseIDs(run: run.id, matching: filter, offset: 0, limit: Int.max)
            matching = all.count
            ids = Array(all.dropFirst(offset).prefix(parameters.pageSize))
        } else {
            ids = try await store.caseIDs(run: run.id, matching: filter, offset: offset, limit: parameters.pageSize)
        }
        let cells = try await store.resultCells(run: run.id, feature: scope, caseIDs: ids)
        return GridPage(
            run: run, feature: feature, features: layout.features.map(\.name), parameters: parameters,
            totalCases: feature.caseCount, matchingCases: matching, rows: Self.rows(cells),
            references: await catalog.references(of: run))
    }

    /// Groups cells (sorted by case, repeat, arm) into rows.
    static func rows(_ cells: [ResultCell]) -> [Row] {
        var rows: [Row] = []
        for cell in cells {
            if let last = rows.last, last.caseID == cell.key.caseID, last.repeatIndex == cell.key.repeatIndex {
                rows[rows.count - 1].cells[cell.key.armID] = cell
            } else {
                rows.append(Row(caseID: cell.key.caseID, repeatIndex: cell.key.repeatIndex, cells: [cell.key.armID: cell]))
            }
        }
        return rows
    }

    var arms: [String] { feature.arms.map(\.armID) }

    /// The arms that get a column. Arms never sent (no API key, model not installed) have nothing to read per case,
    /// so they are named once above the grid instead of filling a column with the same line on every row.
    var columnArms: [ArmResultCount] { feature.arms.filter { !$0.neverMeasured } }

    /// The two arms the rows' diff links compare: the chosen ones, else the first two that were measured.
    var diffArms: (String, String)? {
        let measured = feature.arms.filter { !$0.neverMeasured }.map(\.armID)
        let a = parameters.diffA.flatMap { arms.contains($0) ? $0 : nil } ?? measured.first
        let b = parameters.diffB.flatMap { arms.contains($0) ? $0 : nil } ?? measured.first { $0 != a }
        guard let a, let b, a != b else { return nil }
        return (a, b)
    }

    var pageCount: Int { max(1, (matchingCases + parameters.pageSize - 1) / parameters.pageSize) }

    func render() -> String {
        var body = HTML()
        body.element("h1") { h1 in
            h1.text("Cases × arms: ")
            h1.element("code", text: run.id)
            h1.text(" · \(feature.name)")
        }
        body.append(featureLinks())
        body.append(filterForm())
        body.append(summary())
        body.append(table())
        body.append(pager())
        return PageLayout.document(
            title: "\(run.id) cases",
            breadcrumbs: [PageLayout.home, (run.id, ViewLink("/run", [("id", run.id)])), ("cases: \(feature.name)", nil)],
            body: body)
    }

    private func featureLinks() -> HTML {
        var html = HTML()
        guard features.count > 1 else { return html }
        html.element("p", [("class", "features")]) { p in
            p.text("Feature: ")
            for name in features {
                if name == feature.name {
                    p.element("b", text: name)
                } else {
                    p.element("a", [("href", parameters.link(feature: name, page: 1, keepFilters: false).href)], text: name)
                }
                p.text(" ")
            }
        }
        return html
    }

    /// A GET form: every filter is a query parameter, so it works without scripts.
    private func filterForm() -> HTML {
        var html = HTML()
        html.element("form", [("class", "filters"), ("method", "get"), ("action", "/grid")]) { form in
            form.void("input", [("type", "hidden"), ("name", "run"), ("value", run.id)])
            form.void("input", [("type", "hidden"), ("name", "feature"), ("value", feature.name)])
            form.element("label") { label in
                label.void("input", [("type", "checkbox"), ("name", "failing"), ("value", "1"), ("checked", parameters.failingOnly ? "" : nil)])
                label.text(" failing only")
            }
            form.element("label") { label in
                label.void("input", [("type", "checkbox"), ("name", "disagree"), ("value", "1"), ("checked", parameters.armsDisagree ? "" : nil)])
                label.text(" arms disagree")
            }
            form.element("label") { label in
                label.text("constraint failing ")
                label.element("select", [("name", "constraint")]) { select in
                    select.element("option", [("value", "")], text: "(any)")
                    for name in feature.constraintNames {
                        select.element("option", [("value", name), ("selected", parameters.constraint == name ? "" : nil)], text: name)
                    }
                }
            }
            form.element("label") { label in
                label.text("text ")
                label.void("input", [("type", "search"), ("name", "q"), ("value", parameters.text ?? ""), ("placeholder", "case id, input or output")])
            }
            form.append(armSelect(name: "a", label: "diff", selected: diffArms?.0))
            form.append(armSelect(name: "b", label: "against", selected: diffArms?.1))
            form.element("button", [("type", "submit")], text: "Apply")
            if parameters.isFiltered {
                form.element("a", [("href", parameters.link(feature: feature.name, page: 1, keepFilters: false).href)], text: "clear filters")
            }
        }
        return html
    }

    private func armSelect(name: String, label text: String, selected: String?) -> HTML {
        var html = HTML()
        html.element("label") { label in
            label.text(text + " ")
            label.element("select", [("name", name)]) { select in
                for arm in arms {
                    select.element("option", [("value", arm), ("selected", arm == selected ? "" : nil)], text: arm)
                }
            }
        }
        return html
    }

    private func summary() -> HTML {
        var html = HTML()
        html.element("p", [("class", "meta summary")]) { p in
            let first = (parameters.page - 1) * parameters.pageSize
            p.text(parameters.isFiltered ? "\(matchingCases) of \(totalCases) cases match" : "\(totalCases) cases")
            if matchingCases > 0 {
                p.text(" · showing \(first + 1)–\(first + Set(rows.map(\.caseID)).count) · page \(parameters.page) of \(pageCount)")
            }
            if let reason = references.unavailableReason { p.text(" · \(reason)") }
        }
        return html
    }

    private func table() -> HTML {
        var html = HTML()
        if rows.isEmpty {
            html.element("p", [("class", "empty")], text: parameters.isFiltered ? "No case matches these filters." : "No results stored.")
            return html
        }
        html.append(notMeasuredLine())
        html.element("table", [("class", "grid")]) { table in
            table.element("thead") { head in
                head.element("tr") { tr in
                    tr.element("th", [("class", "case-id")], text: "case")
                    tr.element("th", text: "input")
                    tr.element("th", text: "reference")
                    for arm in columnArms {
                        tr.element("th", [("data-arm", arm.armID)]) { th in
                            th.element("code", text: arm.armID)
                            th.element(
                                "div", [("class", "measure")],
                                text: "\(arm.count) results")
                        }
                    }
                }
            }
            table.element("tbody") { body in
                for row in rows { body.append(self.row(row)) }
            }
        }
        return html
    }

    /// "not measured: ARM (reason); …" for the arms without a column, with the reason stored for their results.
    private func notMeasuredLine() -> HTML {
        var html = HTML()
        let unmeasured = feature.arms.filter(\.neverMeasured).map(\.armID)
        guard !unmeasured.isEmpty else { return html }
        html.element("p", [("class", "meta not-measured")]) { p in
            p.text("not measured (never sent): ")
            for (index, arm) in unmeasured.enumerated() {
                if index > 0 { p.text("; ") }
                p.element("code", [("data-arm", arm)], text: arm)
                if let reason = rows.lazy.compactMap({ $0.cells[arm]?.error?.message }).first {
                    p.text(" (\(reason))")
                }
            }
        }
        return html
    }

    private func row(_ row: Row) -> HTML {
        let dataset = references.cases[row.caseID]
        var html = HTML()
        html.element("tr", [("class", row.armsDisagree ? "case disagree" : "case"), ("data-case", row.caseID)]) { tr in
            tr.element("td", [("class", "case-id")]) { td in
                td.element("code", text: row.caseID)
                if row.repeatIndex > 0 { td.text(" #\(row.repeatIndex)") }
                if let (a, b) = diffArms, row.cells[a] != nil, row.cells[b] != nil {
                    td.element("div") { div in
                        div.element("a", [("class", "diff-link"), ("href", diffLink(row, a, b).href)], text: "diff")
                    }
                }
            }
            tr.element("td", [("class", "input")]) { td in
                td.element("pre", text: Self.input(dataset, cells: row.cells))
            }
            tr.element("td", [("class", "reference")]) { td in
                if let reference = dataset?.reference {
                    td.element("pre", text: reference.summary)
                } else {
                    td.element("span", [("class", "measure")], text: "—")
                }
            }
            for arm in columnArms.map(\.armID) {
                let cell = row.cells[arm]
                tr.element("td", [("class", "cell " + ResultCellMarkup.statusClass(cell)), ("data-arm", arm)]) { td in
                    td.append(ResultCellMarkup.content(cell))
                }
            }
        }
        return html
    }

    private func diffLink(_ row: Row, _ a: String, _ b: String) -> ViewLink {
        ViewLink("/diff", [
            ("run", run.id), ("feature", feature.name), ("case", row.caseID), ("repeat", String(row.repeatIndex)), ("a", a),
            ("b", b),
        ])
    }

    /// The dataset's input variables when the dataset is readable, else the prompt that was sent.
    static func input(_ dataset: EvalCase?, cells: [String: ResultCell]) -> String {
        if let dataset, !dataset.input.isEmpty {
            if dataset.input.count == 1, let only = dataset.input.first { return only.value }
            return dataset.input.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "\n")
        }
        return cells.values.sorted { $0.key.armID < $1.key.armID }.lazy.compactMap(\.renderedPrompt).first ?? "—"
    }

    private func pager() -> HTML {
        var html = HTML()
        guard pageCount > 1 else { return html }
        html.element("p", [("class", "pager")]) { p in
            if parameters.page > 1 {
                p.element("a", [("href", parameters.link(feature: feature.name, page: 1).href)], text: "« first")
                p.element("a", [("rel", "prev"), ("href", parameters.link(feature: feature.name, page: parameters.page - 1).href)], text: "‹ previous")
            }
            p.text("page \(parameters.page) of \(pageCount)")
            if parameters.page < pageCount {
                p.element("a", [("rel", "next"), ("href", parameters.link(feature: feature.name, page: parameters.page + 1).href)], text: "next ›")
                p.element("a", [("href", parameters.link(feature: feature.name, page: pageCount).href)], text: "last »")
            }
        }
        return html
    }
}
