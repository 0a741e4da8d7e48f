/// Per-case values of one arm, aligned with ``FeatureReport/caseKeys``: what paired comparisons (within a run,
/// or against a baseline report) are computed from. nil entries are cases the arm did not run or could not score.
///
/// Stored compactly (adherence as one byte, values as `Double` with NaN for nil) because a report keeps these for
/// every arm until it is written: `[Int?]` and `[Double?]` take 16 bytes a case, which was a third of a
/// million-result report's memory. The properties and the JSON are the optional arrays, as before.
public struct ArmCases: Sendable, Hashable, Codable {
    /// -1 for nil, else 0 or 1.
    private var adherenceCodes: [Int8]
    /// NaN for nil.
    private var scoreValues: [String: [Double]]
    /// NaN for nil.
    private var totalValues: [Double]

    /// 1 when every constraint passed, 0 when one failed or the request errored; nil when unchecked or absent.
    public var adherence: [Int?] {
        get { adherenceCodes.map { $0 < 0 ? nil : Int($0) } }
        set { adherenceCodes = Self.codes(newValue) }
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
    public init(adherence: [Int?], scores: [String: [Double?]], totalMs: [Double?]) {
        adherenceCodes = Self.codes(adherence)
        scoreValues = scores.mapValues(Self.values)
        totalValues = Self.values(totalMs)
    }

    /// The compact form directly (the report builder's per-case arrays), without building optional arrays.
    init(adherenceCodes: [Int8], scoreValues: [String: [Double]], totalValues: [Double]) {
        self.adherenceCodes = adherenceCodes
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
            adherence: try container.decode([Int?].self, forKey: .adherence),
            scores: try container.decode([String: [Double?]].self, forKey: .scores),
            totalMs: try container.decode([Double?].self, forKey: .totalMs))
    }

    /// Encodes the optional arrays (nil as JSON null), as before the compact storage.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(adherence, forKey: .adherence)
        try container.encode(scores, forKey: .scores)
        try container.encode(totalMs, forKey: .totalMs)
    }

    /// Equal when every entry is (nil counting as equal to nil, which NaN alone would not be).
    public static func == (lhs: ArmCases, rhs: ArmCases) -> Bool {
        lhs.adherenceCodes == rhs.adherenceCodes && lhs.totalMs == rhs.totalMs && lhs.scores == rhs.scores
    }

    /// Hashes what ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(adherenceCodes)
        hasher.combine(totalMs)
        hasher.combine(scores)
    }

    private static func codes(_ adherence: [Int?]) -> [Int8] {
        adherence.map { $0.map { Int8(clamping: $0) } ?? -1 }
    }

    private static func values(_ optionals: [Double?]) -> [Double] {
        optionals.map { $0 ?? .nan }
    }

    private static func optionals(_ values: [Double]) -> [Double?] {
        values.map { $0.isNaN ? nil : $0 }
    }
}
