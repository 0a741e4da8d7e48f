/// Why `recommend --by-input` proposes nothing before it learns anything, in plain words naming the run, feature,
/// tier and cases: a rule learned from tiers that did not answer the same cases would compare different requests.
public enum InputRuleRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// The route has fewer than two of the run's models: there is nothing to route between.
    case oneTier(runID: String, feature: String, models: [String])
    /// A tier of the route has no arm in the run with the feature's default variant.
    case tierMissing(runID: String, feature: String, arm: String)
    /// A tier did not answer these requests that another tier answered.
    case casesMissing(runID: String, feature: String, tier: String, cases: [String])
    /// The dataset has no input for these cases (or it could not be rendered), so their features are unknown.
    case unmeasured(runID: String, cases: [String])
    /// Too few cases for a rule with at least 5 cases on each side to be judged on held-out folds.
    case tooFewCases(runID: String, count: Int, needed: Int)

    public var description: String {
        switch self {
        case .oneTier(let run, let feature, let models):
            "run \(run): of \(feature)'s route, \(models.isEmpty ? "no model" : "only \(models.joined(separator: ", "))") answered (a model the run left out, or had no key for, answers nothing); a rule routes between two tiers or more that answered the same cases, so nothing is proposed"
        case .tierMissing(let run, let feature, let arm):
            "run \(run) has no results on \(arm) for \(feature): every tier of the route must answer the same cases with the feature's default variant, so nothing is proposed"
        case .casesMissing(let run, let feature, let tier, let cases):
            "run \(run): \(tier) did not answer \(cases.count) case\(cases.count == 1 ? "" : "s") of \(feature) that another tier answered (\(Self.list(cases))); the tiers must answer the same cases (finish it with `hybrid eval --resume \(run)`), so nothing is proposed"
        case .unmeasured(let run, let cases):
            "run \(run): \(cases.count) case\(cases.count == 1 ? "" : "s") could not be measured (\(Self.list(cases))): not in the run's dataset, a conversation, or not renderable with the default variant; nothing is proposed"
        case .tooFewCases(let run, let count, let needed):
            "run \(run) has \(count) cases; learning a rule with held-out folds needs \(needed) at least, so nothing is proposed"
        }
    }

    private static func list(_ cases: [String]) -> String {
        cases.count <= 10 ? cases.joined(separator: ", ") : cases.prefix(10).joined(separator: ", ") + ", …"
    }
}
