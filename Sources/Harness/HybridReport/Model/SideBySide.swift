/// Two arms of one run on the same cases, case by case: what a person reads to see *why* one arm wins.
///
/// One per paired comparison of the feature (the best arm against each other arm, or the `--pair` list). Cases
/// where the arms disagree on pass/fail come first, then cases both fail, then the rest by the largest difference
/// of the primary score; among equals the first stored, shown in case-id order. Only the first
/// ``ReportOptions/sideBySideCasesPerPair`` cases are listed; ``omittedCount`` says how many more there were.
public struct SideBySide: Sendable, Hashable, Codable {
    /// The first arm (the best arm, or the first of a `--pair`).
    public var first: String
    /// The second arm.
    public var second: String
    /// Cases (and repeats) both arms have a result for.
    public var pairedCount: Int
    /// Of those, how many one arm passed and the other failed.
    public var disagreeCount: Int
    /// The listed cases, most telling first.
    public var cases: [PairedCase]
    /// Paired cases not listed.
    public var omittedCount: Int

    /// A side by side; normally made by ``ReportBuilder``.
    public init(first: String, second: String, pairedCount: Int, disagreeCount: Int, cases: [PairedCase], omittedCount: Int) {
        self.first = first
        self.second = second
        self.pairedCount = pairedCount
        self.disagreeCount = disagreeCount
        self.cases = cases
        self.omittedCount = omittedCount
    }
}

/// One case of a ``SideBySide``: each arm's input, output and checks.
public struct PairedCase: Sendable, Hashable, Codable {
    /// The dataset case id.
    public var caseID: String
    /// The repeat index.
    public var repeatIndex: Int
    /// The first arm's result.
    public var first: CaseOutcome
    /// The second arm's result.
    public var second: CaseOutcome

    /// A paired case; see the properties.
    public init(caseID: String, repeatIndex: Int, first: CaseOutcome, second: CaseOutcome) {
        self.caseID = caseID
        self.repeatIndex = repeatIndex
        self.first = first
        self.second = second
    }
}
