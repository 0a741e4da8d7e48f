/// How a rollout's experiment is decided (#68): `alwaysValid` (the default) lets every reading of the field report
/// decide by the always-valid test; `planned` states a horizon (days or installs) and a look schedule up front, and
/// group-sequential boundaries from the named alpha-spending function govern the planned looks (a reading off the
/// plan decides by the always-valid test on a tenth of α). The harness reads it; the router ignores it.
package struct RolloutDesign: Sendable, Hashable, Codable {
    /// How far the experiment runs: `{"days": 7}` or `{"installs": 200}` (installs in every arm together).
    struct Horizon: Sendable, Hashable, Codable {
        var days: Double?
        var installs: Int?

        init(days: Double? = nil, installs: Int? = nil) {
            self.days = days
            self.installs = installs
        }
    }

    /// `alwaysValid` or `planned` (kept as written, so the validator can name an unknown one).
    var kind: String
    /// The horizon of a planned design.
    var horizon: Horizon?
    /// Looks equally spaced over the horizon, the last at the horizon.
    var looks: Int?
    /// Or the looks' days (a days horizon) or install counts (an installs horizon), increasing, none past it.
    var lookDays: [Double]?
    var lookInstalls: [Int]?
    /// The alpha-spending function: `obrienFleming` (default) or `pocock`.
    var spending: String?
    /// The metric the experiment is for (the field report's name, e.g. `adherence`): it gets 0.8 of the planned α
    /// and the other metrics share the rest; nil: every metric an equal share (Holm).
    var primaryMetric: String?

    /// The kinds a design may have.
    package static let kinds = ["alwaysValid", "planned"]
    /// The most planned looks a design may have: each reading integrates over every look before it, and looks more
    /// often than this buy nothing a reading off the plan does not.
    package static let maxLooks = 100
    /// The spending functions the report knows.
    static let spendingFunctions = ["obrienFleming", "pocock"]
    /// The field report's metrics a design may name as primary (the report's `FieldDesign.metrics`; a test keeps the
    /// two lists equal, since the config cannot import the harness).
    static let primaryMetrics = ["adherence", "fallbackRate", "errorRate", "latencyMeanMs", "ttftMeanMs", "costPer1000USD"]

    /// A design; see the properties.
    init(
        kind: String = "planned", horizon: Horizon? = nil, looks: Int? = nil, lookDays: [Double]? = nil,
        lookInstalls: [Int]? = nil, spending: String? = nil
    ) {
        self.kind = kind
        self.horizon = horizon
        self.looks = looks
        self.lookDays = lookDays
        self.lookInstalls = lookInstalls
        self.spending = spending
    }

    /// What the harness's field report reads of a valid planned design: the horizon in its unit (days or installs),
    /// the looks' positions in that unit (the listed ones, or `looks` equally spaced with the last at the horizon) and
    /// the spending function's name; nil for the always-valid design.
    package var planned: (horizon: Double, inDays: Bool, looks: [Double], spending: String, primaryMetric: String?)? {
        guard kind == "planned", let horizon, let amount = horizon.days ?? horizon.installs.map(Double.init) else { return nil }
        let inDays = horizon.days != nil
        let listed = inDays ? lookDays : lookInstalls?.map(Double.init)
        let count = max(1, looks ?? 1)
        let positions = listed ?? (1...count).map { amount * Double($0) / Double(count) }
        return (amount, inDays, positions, spending ?? "obrienFleming", primaryMetric)
    }

    private enum CodingKeys: String, CodingKey { case kind, horizon, looks, lookDays, lookInstalls, spending, primaryMetric }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decodeIfPresent(String.self, forKey: .kind) ?? "alwaysValid"
        horizon = try container.decodeIfPresent(Horizon.self, forKey: .horizon)
        looks = try container.decodeIfPresent(Int.self, forKey: .looks)
        lookDays = try container.decodeIfPresent([Double].self, forKey: .lookDays)
        lookInstalls = try container.decodeIfPresent([Int].self, forKey: .lookInstalls)
        spending = try container.decodeIfPresent(String.self, forKey: .spending)
        primaryMetric = try container.decodeIfPresent(String.self, forKey: .primaryMetric)
    }
}
