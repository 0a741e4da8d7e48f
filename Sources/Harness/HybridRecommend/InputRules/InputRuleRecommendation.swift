import Foundation
public import HybridConfig
public import HybridReport

/// What `recommend --by-input` found for one feature: the rule (or why none), its cross-fitted figures against
/// the current route, all-device, all-cloud and the cascade, the cost–quality curve, and the config to write.
public struct InputRuleRecommendation: Sendable {
    public var runID: String
    public var feature: String
    /// The route's models, device first.
    public var tiers: [String]
    /// Why nothing was learned at all (one tier, missing cases); nil when the search ran.
    public var refusal: InputRuleRefusal?
    /// The rule chosen on all cases (written only when `proposed`).
    package var rule: InputRule?
    /// The cascade runs behind the rule.
    public var cascade = false
    /// The rule in plain words, with the cascade named.
    public var ruleWords: String?
    /// What the recommendation could not judge, said under it (a quality floor without scores).
    public var notes: [String] = []
    /// Whether the rule is proposed.
    public var proposed = false
    /// Why it is or is not, in plain words.
    public var reason = ""
    /// The cross-fitted procedure's figures.
    public var learned: RouteFigures?
    /// The current route, all-device, all-cloud and the cascade, on the same cases.
    public var baselines: [RouteFigures] = []
    /// The rule each fold chose on the other folds (nil: none).
    public var foldRules: [String?] = []
    /// The share of requests the cross-fitted rules sent to the cloud order first.
    public var sentToCloud: SelectionShare?
    public var verdict: Verdict?
    public var curve: CostQualityCurve?
    /// The config in force with version + 1 and the rule; nil unless proposed.
    public var document: HybridConfigDocument?

    init(runID: String, feature: String, tiers: [String], refusal: InputRuleRefusal?) {
        self.runID = runID
        self.feature = feature
        self.tiers = tiers
        self.refusal = refusal
    }

    /// The printed summary.
    public func render() -> String {
        if let refusal { return "\(feature): nothing proposed: \(refusal)" }
        var lines = ["\(feature) (run \(runID), tiers \(tiers.joined(separator: " → "))):"]
        if let rule {
            let cascade = cascade ? "; the cascade behind it (a device answer failing a check goes to the next tier)" : ""
            lines.append("  rule\(proposed ? "" : " (not proposed)"): \(rule.plainWords)\(cascade)")
        }
        lines.append("  \(proposed ? "proposed" : "nothing proposed"): \(reason)")
        if let share = sentToCloud {
            lines.append(String(format: "  requests first sent to: %@ %.0f %%, %@ %.0f %% (cross-fitted)",
                                tiers[0], share.device * 100, tiers.dropFirst().joined(separator: " → "), share.cloud * 100))
        }
        if let learned { lines.append("  " + learned.line) }
        lines += baselines.map { "  " + $0.line }
        if !foldRules.isEmpty {
            lines.append("  chosen on each fold's training part: " + foldRules.enumerated().map { "\($0.offset + 1): \($0.element ?? "none")" }.joined(separator: "; "))
        }
        lines += notes.map { "  note: \($0)" }
        if let curve { lines += ["", curve.markdown()] }
        return lines.joined(separator: "\n")
    }
}
