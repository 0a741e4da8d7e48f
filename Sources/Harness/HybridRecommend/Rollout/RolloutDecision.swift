public import Foundation

/// One look of `hybrid rollout` and what it decided, with the figures behind it.
public struct RolloutDecision: Sendable, Hashable, Codable {
    /// What the look did.
    public enum Action: String, Sendable, Hashable, Codable {
        /// The first stage was published.
        case start
        /// Nothing changed; `reason` says what is missing.
        case hold
        /// The next stage was published.
        case advance
        /// The arm was set to 0 %: a guardrail was shown worse.
        case rollBack
        /// Stopped by hand; the config in force stays.
        case abort
        /// A stage found published that the state did not know (a process killed after publishing), taken as is.
        case adopt
    }

    /// When.
    public var at: Date
    /// What.
    public var action: Action
    /// The stage (an index into the plan's stages) in force after the decision.
    public var stage: Int
    /// The arm's percentage in force after the decision.
    public var percentage: Double
    /// The config version judged (the stage's) or, for a change, the one published.
    public var configVersion: Int
    /// Why, in one line.
    public var reason: String
    /// Each guardrail as judged at this look (empty when nothing could be judged yet).
    public var guardrails: [GuardrailFigure]
    /// Installs with events of the stage, in the arm and in the control.
    public var armInstalls: Int
    public var controlInstalls: Int

    /// A decision.
    public init(
        at: Date, action: Action, stage: Int, percentage: Double, configVersion: Int, reason: String,
        guardrails: [GuardrailFigure] = [], armInstalls: Int = 0, controlInstalls: Int = 0
    ) {
        self.at = at
        self.action = action
        self.stage = stage
        self.percentage = percentage
        self.configVersion = configVersion
        self.reason = reason
        self.guardrails = guardrails
        self.armInstalls = armInstalls
        self.controlInstalls = controlInstalls
    }

    /// The status line `hybrid rollout` prints and stores for the feature.
    public func line(feature: String) -> String {
        let when = ISO8601DateFormatter().string(from: at)
        let figures = guardrails.map(\.description).joined(separator: "; ")
        let place = action == .hold || action == .abort ? "at" : "to"
        return "\(when) \(feature) \(action.rawValue) \(place) \(Self.percent(percentage)) (config v\(configVersion), "
            + "\(armInstalls) arm / \(controlInstalls) control installs): \(reason)" + (figures.isEmpty ? "" : " [\(figures)]")
    }

    /// A percentage as the rollout prints it: "10 %", "2.50 %".
    public static func percent(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) %" : String(format: "%.2f %%", value)
    }
}

/// One guardrail at one look: the arm's difference from the control on installs, its always-valid interval at the
/// guardrail's share of α (intersected over the stage's looks), and whether that shows harm beyond the tolerance.
public struct GuardrailFigure: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The metric.
    public var metric: String
    /// Arm minus control.
    public var difference: Double
    /// The always-valid interval, running over the stage's looks.
    public var lower: Double
    public var upper: Double
    /// How much worse the arm may be.
    public var tolerance: Double
    /// True when the interval lies wholly on the harmful side of the tolerance.
    public var breached: Bool

    public init(metric: String, difference: Double, lower: Double, upper: Double, tolerance: Double, breached: Bool) {
        self.metric = metric
        self.difference = difference
        self.lower = lower
        self.upper = upper
        self.tolerance = tolerance
        self.breached = breached
    }

    public var description: String {
        String(format: "%@ %+.4g [%.4g, %.4g] tol %.4g%@", metric, difference, lower, upper, tolerance, breached ? " BREACH" : "")
    }
}
