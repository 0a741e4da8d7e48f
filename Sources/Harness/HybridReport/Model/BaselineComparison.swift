/// Comparisons of the report's run against a baseline (another stored run or a committed JSON report), arm by
/// arm on the same arm ids, current run first.
public struct BaselineComparison: Sendable, Hashable, Codable {
    /// The baseline's run id.
    public var baselineRunID: String
    /// Where the baseline came from: `store` or the JSON file path.
    public var source: String
    /// The comparisons, Holm-adjusted as one family; `first` is the current arm, `second` the baseline arm.
    public var comparisons: [PairedComparison]
    /// Arms present in only one of the two reports, as "feature/arm".
    public var unmatchedArms: [String]
    /// The cases that flipped pass→fail and fail→pass per arm, with both outputs; nil when the baseline's outputs
    /// are not in the store (a baseline `report.json`).
    public var flips: CaseFlips?

    /// A baseline section; see the properties.
    public init(
        baselineRunID: String, source: String, comparisons: [PairedComparison], unmatchedArms: [String],
        flips: CaseFlips? = nil
    ) {
        self.baselineRunID = baselineRunID
        self.source = source
        self.comparisons = comparisons
        self.unmatchedArms = unmatchedArms
        self.flips = flips
    }
}
