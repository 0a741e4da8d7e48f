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

        /// An entry; see the properties.
        public init(arm: String, control: String, metric: String, segment: String?, pValue: Double, lower: Double, upper: Double) {
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

    /// A look; see the properties.
    public init(runID: String, events: Int, recordedAt: Date, entries: [Entry]) {
        self.runID = runID
        self.events = events
        self.recordedAt = recordedAt
        self.entries = entries
    }
}
