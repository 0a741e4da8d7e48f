import HybridStore

/// The grid's query parameters: which run and feature, the filters, the page, and the two arms its diff links
/// compare. Every filter is a plain GET parameter, so the form works without scripts and a filtered view is a URL.
struct GridParameters: Sendable {
    static let defaultPageSize = 50
    static let maximumPageSize = 500

    var runID: String?
    var feature: String?
    var failingOnly: Bool
    var armsDisagree: Bool
    var constraint: String?
    var text: String?
    /// 1-based.
    var page: Int
    var pageSize: Int
    var diffA: String?
    var diffB: String?

    init(_ query: QueryParameters) {
        runID = query["run"]
        feature = query["feature"]
        failingOnly = query.flag("failing")
        armsDisagree = query.flag("disagree")
        constraint = query["constraint"]
        text = query["q"]
        page = max(1, query.integer("page", default: 1))
        pageSize = min(Self.maximumPageSize, max(1, query.integer("size", default: Self.defaultPageSize)))
        diffA = query["a"]
        diffB = query["b"]
    }

    /// The store filter over `feature` (nil: every feature of the run).
    func caseFilter(feature: String?) -> CaseFilter {
        CaseFilter(feature: feature, failingOnly: failingOnly, armsDisagree: armsDisagree, failingConstraint: constraint, text: text)
    }

    var isFiltered: Bool { failingOnly || armsDisagree || constraint != nil || text != nil }

    /// This grid with some parameters changed; nil `page` keeps the current one.
    func link(feature: String?, page: Int? = nil, keepFilters: Bool = true) -> ViewLink {
        var parameters: [(String, String?)] = [("run", runID), ("feature", feature)]
        if keepFilters {
            parameters += [
                ("failing", failingOnly ? "1" : nil), ("disagree", armsDisagree ? "1" : nil), ("constraint", constraint),
                ("q", text),
            ]
        }
        parameters += [
            ("a", diffA), ("b", diffB), ("size", pageSize == Self.defaultPageSize ? nil : String(pageSize)),
            ("page", (page ?? self.page) > 1 ? String(page ?? self.page) : nil),
        ]
        return ViewLink("/grid", parameters)
    }
}
