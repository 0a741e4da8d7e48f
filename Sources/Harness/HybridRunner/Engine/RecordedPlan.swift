public import HybridStore

/// The plan's shape a run recorded in its arguments when it started (``ResumeCheck`` writes it): which arms, how
/// many cases, how many repeats. With the dataset it names every planned key, which `hybrid merge` needs to list
/// the keys no shard holds.
public struct RecordedPlan: Sendable, Hashable {
    /// Arm ids (`variant@model`).
    public var arms: [String]
    /// How many cases from the start of the dataset (after `--limit`).
    public var cases: Int
    /// Repeats per case and arm.
    public var repeats: Int

    /// The shape `run` recorded; nil for runs stored before it was recorded.
    public init?(run: RunRecord) {
        let plan = run.arguments[ResumeCheck.argumentsKey]
        guard let arms = plan?["arms"]?.arrayValue?.compactMap(\.stringValue), let cases = plan?["cases"]?.intValue,
            let repeats = plan?["repeats"]?.intValue
        else { return nil }
        self.arms = arms
        self.cases = cases
        self.repeats = repeats
    }

    /// Every key of run `runID` over the first `cases` cases of `dataset`.
    public func keys(runID: String, dataset: Dataset) -> [ResultKey] {
        dataset.cases.prefix(cases).flatMap { item in
            arms.flatMap { arm in
                (0..<repeats).map { ResultKey(runID: runID, caseID: item.id, armID: arm, repeatIndex: $0) }
            }
        }
    }
}
