import Foundation

/// How far the judge whose scores a report shows can be believed, measured by `hybrid judge-check` against answers
/// people scored; "unmeasured" when no check was given. `report.json` carries it as `judgeReliability`, and
/// `hybrid recommend --judge-check` reads the same document.
public struct JudgeReliabilitySummary: Sendable, Hashable, Codable {
    /// The judge model measured; nil when unmeasured.
    public var judge: String?
    /// The labels file the judge was measured on.
    public var labels: String?
    /// Answers people scored, and how many of them the judge scored.
    public var answers: Int
    public var scored: Int
    /// Quadratic-weighted kappa and its bootstrap interval.
    public var kappa: Double?
    public var kappaLower: Double?
    public var kappaUpper: Double?
    /// The lower bound a reliable judge reaches.
    public var minimumKappa: Double
    /// At least 10 scored answers and the kappa's lower bound at `minimumKappa`.
    public var reliable: Bool

    public init(
        judge: String?, labels: String?, answers: Int, scored: Int, kappa: Double?, kappaLower: Double?, kappaUpper: Double?,
        minimumKappa: Double
    ) {
        self.judge = judge
        self.labels = labels
        self.answers = answers
        self.scored = scored
        self.kappa = kappa
        self.kappaLower = kappaLower
        self.kappaUpper = kappaUpper
        self.minimumKappa = minimumKappa
        reliable = scored >= 10 && (kappaLower.map { $0 >= minimumKappa } ?? false)
    }

    /// A report's judge when nothing measured it.
    public static let unmeasured = JudgeReliabilitySummary(
        judge: nil, labels: nil, answers: 0, scored: 0, kappa: nil, kappaLower: nil, kappaUpper: nil, minimumKappa: 0.6)

    /// Whether a `hybrid judge-check` stands behind it.
    public var measured: Bool { judge != nil }

    /// One sentence for every report format.
    public var sentence: String {
        guard let judge else {
            return "the judge's agreement with people is unmeasured (give `--judge-labels` to eval or rescore, or pass a `hybrid judge-check` file as `--judge-check`): its scores are shown, not to be decided on"
        }
        let figure = kappa.map { k in
            String(format: "weighted kappa %.2f", k) + (kappaLower.map { lower in String(format: " [%.2f, %.2f]", lower, kappaUpper ?? lower) } ?? "")
        } ?? "kappa undefined"
        return "judge \(judge): \(figure) on \(scored) of \(answers) answers people scored (\(labels ?? "labels"))"
            + (reliable ? ": reliable" : String(format: ": NOT reliable enough to decide on (10 answers and a lower bound of %.2f needed)", minimumKappa))
    }
}
