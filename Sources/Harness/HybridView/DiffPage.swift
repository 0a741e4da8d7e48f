import HybridStore

/// Two arms' outputs for one case side by side, and a word-level diff between them (`<del>`: only in the first
/// arm, `<ins>`: only in the second), rendered on the server.
struct DiffPage: Sendable {
    var run: RunRecord
    var feature: String?
    var caseID: String
    var repeatIndex: Int
    var first: ResultCell
    var second: ResultCell
    var arms: [String]
    var references: CaseReferences

    static func load(_ query: QueryParameters, catalog: ViewCatalog) async throws -> DiffPage {
        let run = try await catalog.run(query["run"])
        guard let caseID = query["case"] else { throw ViewError.badRequest("which case? add &case=CASE_ID") }
        let repeatIndex = query.integer("repeat", default: 0)
        let feature = query["feature"]
        let cells = try await catalog.store.resultCells(run: run.id, feature: feature, caseIDs: [caseID])
            .filter { $0.key.repeatIndex == repeatIndex }
        let arms = cells.map(\.key.armID)
        guard let a = query["a"] ?? arms.first, let b = query["b"] ?? arms.first(where: { $0 != a }) else {
            throw ViewError.notFound("case \(caseID) of run \(run.id) has fewer than two arms to compare")
        }
        guard let first = cells.first(where: { $0.key.armID == a }) else {
            throw ViewError.notFound("no result of arm \(a) for case \(caseID) #\(repeatIndex) in run \(run.id)")
        }
        guard let second = cells.first(where: { $0.key.armID == b }) else {
            throw ViewError.notFound("no result of arm \(b) for case \(caseID) #\(repeatIndex) in run \(run.id)")
        }
        return DiffPage(
            run: run, feature: feature ?? first.feature, caseID: caseID, repeatIndex: repeatIndex, first: first,
            second: second, arms: arms, references: await catalog.references(of: run))
    }

    func render() -> String {
        let diff = WordDiff(first.rawOutput ?? "", second.rawOutput ?? "")
        var body = HTML()
        body.element("h1") { h1 in
            h1.text("Case ")
            h1.element("code", text: caseID)
            if repeatIndex > 0 { h1.text(" #\(repeatIndex)") }
            h1.text(": ")
            h1.element("code", text: first.key.armID)
            h1.text(" → ")
            h1.element("code", text: second.key.armID)
        }
        body.append(armForm())
        body.append(caseContext())
        body.element("h2", text: "Word diff")
        body.element("p", [("class", "meta")]) { p in
            p.text("\(diff.deletedCount) words only in \(first.key.armID) (struck out), \(diff.insertedCount) only in \(second.key.armID) (highlighted)")
            if diff.truncated { p.text("; the outputs are too long to align word by word, so the differing middle is shown replaced whole") }
        }
        body.element("p", [("class", "diff")]) { $0.append(diff.html) }
        body.element("h2", text: "Side by side")
        body.element("div", [("class", "side-by-side")]) { grid in
            for cell in [first, second] {
                grid.element("div", [("class", "cell " + ResultCellMarkup.statusClass(cell)), ("data-arm", cell.key.armID)]) { div in
                    div.element("h3") { $0.element("code", text: cell.key.armID) }
                    div.append(ResultCellMarkup.content(cell, outputLimit: nil))
                }
            }
        }
        let gridLink = ViewLink("/grid", [("run", run.id), ("feature", feature)])
        return PageLayout.document(
            title: "\(caseID) diff",
            breadcrumbs: [
                PageLayout.home, (run.id, ViewLink("/run", [("id", run.id)])), ("cases", gridLink), ("diff \(caseID)", nil),
            ],
            body: body)
    }

    /// Pick two other arms of the same case (a GET form, no scripts).
    private func armForm() -> HTML {
        var html = HTML()
        html.element("form", [("class", "filters"), ("method", "get"), ("action", "/diff")]) { form in
            let hidden = [("run", run.id), ("feature", feature), ("case", caseID), ("repeat", String(repeatIndex))]
            for (name, value) in hidden {
                form.void("input", [("type", "hidden"), ("name", name), ("value", value)])
            }
            for (name, selected) in [("a", first.key.armID), ("b", second.key.armID)] {
                form.element("label") { label in
                    label.text(name == "a" ? "from " : "to ")
                    label.element("select", [("name", name)]) { select in
                        for arm in arms {
                            select.element("option", [("value", arm), ("selected", arm == selected ? "" : nil)], text: arm)
                        }
                    }
                }
            }
            form.element("button", [("type", "submit")], text: "Compare")
        }
        return html
    }

    private func caseContext() -> HTML {
        var html = HTML()
        let dataset = references.cases[caseID]
        html.element("dl") { dl in
            dl.element("dt", text: "input")
            dl.element("dd") { $0.element("pre", text: GridPage.input(dataset, cells: [first.key.armID: first])) }
            if let reference = dataset?.reference {
                dl.element("dt", text: "reference")
                dl.element("dd") { $0.element("pre", text: reference.summary) }
            }
        }
        return html
    }
}
