/// Per-case values of one arm, aligned with ``FeatureReport/caseKeys``: what paired comparisons (within a run,
/// or against a baseline report) are computed from. nil entries are cases the arm did not run or could not score.
///
/// Stored compactly (adherence as one byte, values as `Double` with NaN for nil) because a report keeps these for
/// every arm until it is written: `[Int?]` and `[Double?]` take 16 bytes a case, which was a third of a
/// million-result report's memory. The properties and the JSON are the optional arrays, as before.
public struct ArmCases: Sendable, Hashable, Codable {
    /// -1 for nil, else 0 or 1; ignored when `adherenceShares` is set.
    private var adherenceCodes: [Int8]
    /// Per-case pass shares (NaN for nil) when some case's reduced repeats passed in part; nil while every value is
    /// 0 or 1, which the one-byte codes hold.
    private var adherenceShares: [Double]?
    /// NaN for nil.
    private var scoreValues: [String: [Double]]
    /// NaN for nil.
    private var totalValues: [Double]

    /// 1 when every constraint passed, 0 when one failed or the request errored; nil when unchecked or absent. A
    /// case run several times holds its repeats reduced (``RepeatReducer``): its pass share by default, a value
    /// between 0 and 1.
    public var adherence: [Double?] {
        get {
            if let adherenceShares { return Self.optionals(adherenceShares) }
            return adherenceCodes.map { $0 < 0 ? nil : Double($0) }
        }
        set { (adherenceCodes, adherenceShares) = Self.adherenceStorage(newValue) }
    }

    /// Per scorer, the score; nil when absent (errors are unscorable, not zero).
    public var scores: [String: [Double?]] {
        get { scoreValues.mapValues(Self.optionals) }
        set { scoreValues = newValue.mapValues(Self.values) }
    }

    /// Total latency of latency-eligible results (see ``LatencySummary``); nil otherwise.
    public var totalMs: [Double?] {
        get { Self.optionals(totalValues) }
        set { totalValues = Self.values(newValue) }
    }

    /// Per-case vectors; all must have the length of the feature's case keys. Adherence is 0 or 1, and a NaN value
    /// reads back as nil.
    public init(adherence: [Double?], scores: [String: [Double?]], totalMs: [Double?]) {
        (adherenceCodes, adherenceShares) = Self.adherenceStorage(adherence)
        scoreValues = scores.mapValues(Self.values)
        totalValues = Self.values(totalMs)
    }

    /// The compact form directly (the report builder's per-case arrays), without building optional arrays.
    init(adherenceCodes: [Int8], scoreValues: [String: [Double]], totalValues: [Double]) {
        self.adherenceCodes = adherenceCodes
        adherenceShares = nil
        self.scoreValues = scoreValues
        self.totalValues = totalValues
    }

    /// Reduced repeats (NaN for nil): one-byte codes when every value is 0 or 1.
    init(adherenceValues: [Double], scoreValues: [String: [Double]], totalValues: [Double]) {
        (adherenceCodes, adherenceShares) = Self.adherenceStorage(Self.optionals(adherenceValues))
        self.scoreValues = scoreValues
        self.totalValues = totalValues
    }

    private enum CodingKeys: String, CodingKey {
        case adherence, scores, totalMs
    }

    /// Decodes the optional arrays of the JSON form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            adherence: try container.decode([Double?].self, forKey: .adherence),
            scores: try container.decode([String: [Double?]].self, forKey: .scores),
            totalMs: try container.decode([Double?].self, forKey: .totalMs))
    }

    /// Encodes the optional arrays (nil as JSON null), as before the compact storage; pass/fail adherence as the
    /// integers 0 and 1, as before reduced repeats.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let adherenceShares {
            try container.encode(Self.optionals(adherenceShares), forKey: .adherence)
        } else {
            try container.encode(adherenceCodes.map { $0 < 0 ? nil : Int($0) }, forKey: .adherence)
        }
        try container.encode(scores, forKey: .scores)
        try container.encode(totalMs, forKey: .totalMs)
    }

    /// Equal when every entry is (nil counting as equal to nil, which NaN alone would not be).
    public static func == (lhs: ArmCases, rhs: ArmCases) -> Bool {
        lhs.adherence == rhs.adherence && lhs.totalMs == rhs.totalMs && lhs.scores == rhs.scores
    }

    /// Hashes what ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(adherence)
        hasher.combine(totalMs)
        hasher.combine(scores)
    }

    /// One-byte codes while every value is 0, 1 or nil; else the shares themselves.
    private static func adherenceStorage(_ adherence: [Double?]) -> ([Int8], [Double]?) {
        if adherence.allSatisfy({ $0 == nil || $0 == 0 || $0 == 1 }) {
            return (adherence.map { $0.map { Int8($0) } ?? -1 }, nil)
        }
        return ([], values(adherence))
    }

    private static func values(_ optionals: [Double?]) -> [Double] {
        optionals.map { $0 ?? .nan }
    }

    private static func optionals(_ values: [Double]) -> [Double?] {
        values.map { $0.isNaN ? nil : $0 }
    }
}
