/// What the recommender decided for one feature, and why.
public struct FeatureRecommendation: Sendable {
    /// What happens to the feature's routing.
    public enum Decision: Sendable, Hashable {
        /// A route meeting every floor was shown better than the current one, or as good and cheaper or faster:
        /// priority and default variant change.
        case change
        /// No candidate was shown better than the current route, nor as good and cheaper or faster; `evidence`
        /// says which claim came closest and how many cases would show it.
        case keepNoEvidence
        /// No candidate meets every floor; the current route stays. `closest` says what failed.
        case keepNothingQualifies
    }

    /// Feature name from the config.
    public var feature: String
    /// Id of the stored run the decision rests on.
    public var runID: String
    /// Simulated requests ((case, repeat) pairs).
    public var count: Int
    /// The floors the feature's route had to meet.
    public var floors: FeatureFloors
    /// Change, keep (meets floors) or keep (nothing qualifies).
    public var decision: Decision
    /// The recommended route (the current one for `keep…`); nil only when the current route could not be simulated
    /// and nothing qualifies.
    public var chosen: CandidateEvaluation?
    /// The current route's evaluation, when its arms are in the run.
    public var current: CandidateEvaluation?
    /// The candidate failing the fewest floors (cheapest among those), when nothing qualifies.
    public var closest: CandidateEvaluation?
    /// The claim that moved the route, or why nothing did: the closest claim and the cases it would need.
    public var evidence: [String] = []
    /// How many candidates were simulated and how many met every floor.
    public var candidatesSimulated: Int
    /// How many simulated candidates met every floor.
    public var candidatesQualifying: Int
    /// Things a reviewer should know (skipped models, rollouts that still override the order).
    public var notes: [String]
    /// Models the run measured and the floors allowed: every other model is unmeasured here.
    public var measuredModels: [String]
    /// The hedge delay proposed for the recommended (or kept) route; nil unless the recommender searched for one.
    public var hedge: HedgeRecommendation?

    /// Creates a feature recommendation; `Recommender` builds these.
    public init(
        feature: String, runID: String, count: Int, floors: FeatureFloors, decision: Decision,
        chosen: CandidateEvaluation?, current: CandidateEvaluation?, closest: CandidateEvaluation?,
        candidatesSimulated: Int, candidatesQualifying: Int,
        notes: [String], measuredModels: [String] = []
    ) {
        self.feature = feature
        self.runID = runID
        self.count = count
        self.floors = floors
        self.decision = decision
        self.chosen = chosen
        self.current = current
        self.closest = closest
        self.candidatesSimulated = candidatesSimulated
        self.candidatesQualifying = candidatesQualifying
        self.notes = notes
        self.measuredModels = measuredModels
    }

    /// One sentence: what changed or why nothing did.
    public var reason: String {
        switch decision {
        case .change:
            guard let chosen else { return "changed" }
            return "shown better than the current route, or as good and cheaper or faster: \(chosen.label) (\(RecommendationText.figures(chosen)))"
        case .keepNoEvidence:
            return "keep: no candidate shown better or shown as good and cheaper than the current route"
        case .keepNothingQualifies:
            guard let closest else { return "no candidate could be simulated; current order kept" }
            return "no route meets every floor; current order kept. Closest: \(closest.label) — "
                + closest.failedChecks.map(\.description).joined(separator: "; ")
        }
    }
}
