public import Foundation

/// A planned-horizon design for a field run (#68): the team states the horizon (days or installs) and the looks
/// before the data arrive; group-sequential boundaries from a Lan–DeMets spending function govern the planned looks
/// at α·(1 − ``offPlanShare``), and any other reading decides only by the always-valid test at α·``offPlanShare``.
/// Without one (nil), every reading decides by the always-valid test at α.
public struct FieldDesign: Sendable, Hashable, Codable {
    /// How far the experiment runs: days from the run's first event, or installs in the run (every arm together).
    public enum Horizon: Sendable, Hashable, Codable {
        case days(Double)
        case installs(Int)

        /// The horizon in its unit.
        public var amount: Double {
            switch self {
            case .days(let days): days
            case .installs(let installs): Double(installs)
            }
        }

        /// "7 days", "200 installs".
        public var text: String {
            switch self {
            case .days(let days): "\(FieldDesign.number(days)) day\(days == 1 ? "" : "s")"
            case .installs(let installs): "\(installs) install\(installs == 1 ? "" : "s")"
            }
        }

        /// "day", "installs", the unit a look's position is counted in.
        var unit: String {
            switch self {
            case .days: "day"
            case .installs: "installs"
            }
        }
    }

    /// The horizon.
    public var horizon: Horizon
    /// The planned looks in the horizon's unit (day 1, 2, …; or 50, 100, … installs), increasing, the last at most
    /// the horizon.
    public var schedule: [Double]
    /// The spending function of the planned looks' boundaries.
    public var spending: SpendingFunction
    /// The share of α kept for readings off the plan (between planned looks, or past the horizon); the planned looks
    /// spend the rest. By the union bound the two together hold α.
    public var offPlanShare = 0.1
    /// The metric the experiment is for (one of ``metrics``): its whole-run comparisons get ``primaryShare`` of the
    /// planned α and the other comparisons share the rest, so the question the experiment was run to answer does not
    /// pay for every guardrail; nil: every comparison an equal share (Holm).
    public var primaryMetric: String?
    /// The primary metric's share of the planned α.
    public var primaryShare = 0.8

    /// The field report's metrics a design may name as primary.
    public static let metrics = FieldMetric.sequential.map(\.name)

    /// `looks` equally spaced looks over `horizon`, the last at the horizon.
    public init(horizon: Horizon, looks: Int, spending: SpendingFunction) {
        let count = max(1, looks)
        self.horizon = horizon
        schedule = (1...count).map { horizon.amount * Double($0) / Double(count) }
        self.spending = spending
    }

    /// Looks at the stated positions of `schedule` (days or installs).
    public init(horizon: Horizon, schedule: [Double], spending: SpendingFunction) {
        self.horizon = horizon
        self.schedule = schedule
        self.spending = spending
    }

    /// The design as the report states it and the look history records it; a later report with another text is
    /// another design, and is refused.
    public func summary(alpha: Double) -> String {
        let positions = schedule.map { Self.number($0) }.joined(separator: ", ")
        let where_ = horizon.unit == "day" ? "days \(positions)" : "at \(positions) installs"
        return "planned: \(schedule.count) look\(schedule.count == 1 ? "" : "s") over \(horizon.text) (\(where_)), "
            + "\(spending.rawValue) spending at α \(Self.number(alpha * (1 - offPlanShare)))"
            + (primaryMetric.map { ", \(Self.number(primaryShare)) of it on \($0)" } ?? "") + "; readings off the plan "
            + "decide by the always-valid test at α \(Self.number(alpha * offPlanShare))"
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.3g", value)
    }
}

extension FieldDesign {
    /// How a report stood in its planned design: the design, since when it governs the run, and which planned look
    /// this reading was (or that it was off the plan).
    public struct Reading: Sendable, Hashable, Codable {
        /// ``FieldDesign/summary(alpha:)``.
        public var design: String
        /// When the design was first used (the run's first look under it); this reading's time when it is the first.
        public var since: Date
        /// "planned look 3 of 7, t 0.43" or "off the plan (between planned looks 2 and 3)".
        public var position: String
        /// The planned look, from 1; nil off the plan.
        public var look: Int?
        /// Its information fraction; nil off the plan.
        public var fraction: Double?

        /// A reading; see the properties.
        public init(design: String, since: Date, position: String, look: Int?, fraction: Double?) {
            self.design = design
            self.since = since
            self.position = position
            self.look = look
            self.fraction = fraction
        }

        private enum CodingKeys: String, CodingKey { case design, since, position, look, fraction }

        /// `since` as ISO 8601 in report.json, like the report's other times (a bare `Date` would be seconds since 2001).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(design, forKey: .design)
            try container.encode(since.formatted(.iso8601), forKey: .since)
            try container.encode(position, forKey: .position)
            try container.encodeIfPresent(look, forKey: .look)
            try container.encodeIfPresent(fraction, forKey: .fraction)
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            design = try container.decode(String.self, forKey: .design)
            let text = try container.decode(String.self, forKey: .since)
            guard let date = try? Date(text, strategy: .iso8601) else {
                throw DecodingError.dataCorruptedError(forKey: .since, in: container, debugDescription: "not an ISO 8601 time: \(text)")
            }
            since = date
            position = try container.decode(String.self, forKey: .position)
            look = try container.decodeIfPresent(Int.self, forKey: .look)
            fraction = try container.decodeIfPresent(Double.self, forKey: .fraction)
        }
    }
}
