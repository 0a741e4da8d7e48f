/// The identity of one eval result: which run, which dataset case, which arm, which repeat.
///
/// The results table is unique on this key, so a resumed run can compare the planned keys with
/// `completedKeys(run:)` and can never store the same key twice.
public struct ResultKey: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The run this result belongs to (`RunRecord.id`).
    public var runID: String
    /// The dataset case id (stable across runs of the same dataset).
    public var caseID: String
    /// The arm id: one (feature, prompt variant, model) combination, named by the runner.
    public var armID: String
    /// Which repeat of the case on this arm, from 0.
    public var repeatIndex: Int

    /// Creates a key.
    public init(runID: String, caseID: String, armID: String, repeatIndex: Int) {
        self.runID = runID
        self.caseID = caseID
        self.armID = armID
        self.repeatIndex = repeatIndex
    }

    public var description: String { "\(runID)/\(caseID)/\(armID)#\(repeatIndex)" }
}
