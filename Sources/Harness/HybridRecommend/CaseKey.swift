/// One simulated request: a dataset case and a repeat of it. Routes are compared pair-wise on these.
public struct CaseKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The dataset case id.
    public var caseID: String
    /// Which repeat of the case, from 0.
    public var repeatIndex: Int

    /// Creates a key.
    public init(caseID: String, repeatIndex: Int) {
        self.caseID = caseID
        self.repeatIndex = repeatIndex
    }

    public static func < (lhs: CaseKey, rhs: CaseKey) -> Bool {
        (lhs.caseID, lhs.repeatIndex) < (rhs.caseID, rhs.repeatIndex)
    }

    public var description: String { repeatIndex == 0 ? caseID : "\(caseID)#\(repeatIndex)" }
}
