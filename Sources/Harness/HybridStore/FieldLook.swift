public import Foundation

/// One reading of a field run's report: the always-valid p-value and interval of every arm-vs-control comparison
/// at that moment. Field reports are read after every upload; keeping each look lets the report show the running
/// verdict (the smallest p so far, the intersection of the intervals so far), which an always-valid test allows, so
/// a "worse" seen on day 3 is not silently gone on day 5.
public struct FieldLook: Sendable, Hashable, Codable {
    /// One comparison at this look.
    public struct Entry: Sendable, Hashable, Codable {
        /// The arm, the control, the metric and the segment (`label=value`, nil for the whole run) it compares.
        public var arm: String
        public var control: String
        public var metric: String
        public var segment: String?
        /// The always-valid p-value and interval at this look.
        public var pValue: Double
        public var lower: Double
        public var upper: Double
        /// The z statistic (difference / standard error) at a planned look of a group-sequential design, kept so the
        /// design's later looks can recompute its decisions; nil at a look off the plan and under the always-valid
        /// design.
        public var z: Double?

        /// An entry; see the properties.
        public init(
            arm: String, control: String, metric: String, segment: String?, pValue: Double, lower: Double, upper: Double,
            z: Double? = nil
        ) {
            self.z = z
            self.arm = arm
            self.control = control
            self.metric = metric
            self.segment = segment
            self.pValue = pValue
            self.lower = lower
            self.upper = upper
        }

        /// What identifies the same comparison across looks.
        public var key: String { Self.key(arm: arm, control: control, metric: metric, segment: segment) }

        /// The key of the comparison of `arm` with `control` on `metric` in `segment`.
        public static func key(arm: String, control: String, metric: String, segment: String?) -> String {
            [arm, control, metric, segment ?? ""].joined(separator: "\u{1F}")
        }
    }

    /// The field run.
    public var runID: String
    /// Events the report saw; one look per count, so reading the same data twice records nothing new.
    public var events: Int
    /// When the look was taken.
    public var recordedAt: Date
    /// Every comparison with an always-valid test.
    public var entries: [Entry]
    /// The planned (group-sequential) design the look was taken under, and which of its looks it was; nil under the
    /// always-valid design.
    public var plan: Plan?

    /// A look; see the properties.
    public init(runID: String, events: Int, recordedAt: Date, entries: [Entry], plan: Plan? = nil) {
        self.runID = runID
        self.events = events
        self.recordedAt = recordedAt
        self.entries = entries
        self.plan = plan
    }

    /// What a look under a planned design keeps so its decision can be recomputed and the design cannot change
    /// unnoticed: the design, when it was first used, and the planned look this was (nil: a look off the plan).
    public struct Plan: Sendable, Hashable, Codable {
        /// The design as the report states it ("planned: 7 looks over 7 days, obrienFleming spending, α 0.05, …").
        public var design: String
        /// When the design was first used: the first look recorded under it.
        public var since: Date
        /// The planned look this was, from 1; nil for a look off the plan.
        public var look: Int?
        /// Its information fraction t in (0, 1]; nil off the plan.
        public var fraction: Double?

        /// A plan record; see the properties.
        public init(design: String, since: Date, look: Int?, fraction: Double?) {
            self.design = design
            self.since = since
            self.look = look
            self.fraction = fraction
        }

        private enum CodingKeys: String, CodingKey { case design, since, look, fraction }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            design = try container.decode(String.self, forKey: .design)
            let text = try container.decode(String.self, forKey: .since)
            since = ISO8601DateFormatter().date(from: text) ?? Date(timeIntervalSince1970: 0)
            look = try container.decodeIfPresent(Int.self, forKey: .look)
            fraction = try container.decodeIfPresent(Double.self, forKey: .fraction)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(design, forKey: .design)
            try container.encode(ISO8601DateFormatter().string(from: since), forKey: .since)
            try container.encodeIfPresent(look, forKey: .look)
            try container.encodeIfPresent(fraction, forKey: .fraction)
        }
    }
}
