import HybridReport

/// The document around every page: title, a navigation line, inline CSS (the report's plus the grid's), no
/// scripts and no external assets, so the viewer works offline and a page saved to disk still renders.
enum PageLayout {
    /// A complete HTML document.
    static func document(title: String, breadcrumbs: [(String, ViewLink?)], body: HTML) -> String {
        var page = HTML()
        page.element("nav", [("class", "crumbs")]) { nav in
            for (index, crumb) in breadcrumbs.enumerated() {
                if index > 0 { nav.text(" › ") }
                if let link = crumb.1 {
                    nav.element("a", [("href", link.href)], text: crumb.0)
                } else {
                    nav.element("span", text: crumb.0)
                }
            }
        }
        page.append(body)
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTML.escape(title)) · hybrid view</title>
            <style>\(HTMLReportRenderer.css)
            \(css)</style></head>
            <body>
            \(page.markup)
            </body></html>

            """
    }

    /// The breadcrumbs' first entry, the runs list.
    static let home: (String, ViewLink?) = ("runs", ViewLink("/"))

    static let css = """
        nav.crumbs{font-size:13px;margin-bottom:12px}nav.crumbs a{color:#0969da;text-decoration:none}
        form.filters{display:flex;flex-wrap:wrap;gap:10px 16px;align-items:center;background:#f6f8fa;border:1px solid #d0d7de;
        border-radius:6px;padding:8px 12px;margin:8px 0}form.filters label{white-space:nowrap}
        input[type=search]{width:16em}.pager{margin:8px 0}.pager a{margin:0 6px}
        table.grid{table-layout:fixed;border-collapse:collapse}table.grid td,table.grid th{width:22em;max-width:22em}
        table.grid td.case-id{width:9em}table.grid pre{max-height:180px;margin:0 0 4px;font-size:12px}
        .is-passed{background:#f0fff4}.is-failed{background:#fff5f5}.is-not-measured{background:#f6f8fa;color:#59636e}
        ul.checks{list-style:none;padding:0;margin:2px 0;font-size:12px}ul.checks li.passed:before{content:"✓ "}
        ul.checks li.failed:before{content:"✗ "}.measure{color:#59636e;font-size:12px}.verdict{font-weight:600}
        tr.disagree td.case-id{border-left:4px solid #bf8700}
        ins{background:#dafbe1;text-decoration:none}del{background:#ffebe9}p.diff{font:13px/1.6 ui-monospace,monospace;
        white-space:pre-wrap;border:1px solid #d0d7de;border-radius:6px;padding:10px}
        .side-by-side{display:grid;grid-template-columns:1fr 1fr;gap:12px}.side-by-side pre{max-height:none}
        """
}
