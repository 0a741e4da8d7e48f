/// How a rollout's experiment is decided (#68): `alwaysValid` (the default) lets every reading of the field report
/// decide by the always-valid test; `planned` states a horizon (days or installs) and a look schedule up front, and
/// group-sequential boundaries from the named alpha-spending function govern the planned looks (a reading off the
/// plan decides by the always-valid test on a tenth of α). The harness reads it; the router ignores it.
package struct RolloutDesign: Sendable, Hashable, Codable {
    /// How far the experiment runs: `{"days": 7}` or `{"installs": 200}` (installs in every arm together).
    package struct Horizon: Sendable, Hashable, Codable {
        package var days: Double?
        package var installs: Int?

        package init(days: Double? = nil, installs: Int? = nil) {
            self.days = days
            self.installs = installs
        }
    }

    /// `alwaysValid` or `planned` (kept as written, so the validator can name an unknown one).
    package var kind: String
    /// The horizon of a planned design.
    package var horizon: Horizon?
    /// Looks equally spaced over the horizon, the last at the horizon.
    package var looks: Int?
    /// Or the looks' days (a days horizon) or install counts (an installs horizon), increasing, none past it.
    package var lookDays: [Double]?
    package var lookInstalls: [Int]?
    /// The alpha-spending function: `obrienFleming` (default) or `pocock`.
    package var spending: String?

    /// The kinds a design may have.
    static let kinds = ["alwaysValid", "planned"]
    /// The spending functions the report knows.
    static let spendingFunctions = ["obrienFleming", "pocock"]

    /// A design; see the properties.
    package init(
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

    private enum CodingKeys: String, CodingKey { case kind, horizon, looks, lookDays, lookInstalls, spending }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decodeIfPresent(String.self, forKey: .kind) ?? "alwaysValid"
        horizon = try container.decodeIfPresent(Horizon.self, forKey: .horizon)
        looks = try container.decodeIfPresent(Int.self, forKey: .looks)
        lookDays = try container.decodeIfPresent([Double].self, forKey: .lookDays)
        lookInstalls = try container.decodeIfPresent([Int].self, forKey: .lookInstalls)
        spending = try container.decodeIfPresent(String.self, forKey: .spending)
    }
}
