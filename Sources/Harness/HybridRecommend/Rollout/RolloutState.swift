public import Foundation

/// What `hybrid rollout` knows of one feature's staged rollout, kept in the store (`RolloutRecord`) under a
/// revision: the stage in force and the config version that put it there (its field run holds the stage's events),
/// the running guardrail bounds of this stage, a publish decided but not yet confirmed, and every decision made.
public struct RolloutState: Sendable, Hashable, Codable {
    /// Where the rollout stands.
    public enum Status: String, Sendable, Hashable, Codable {
        case running, completed, rolledBack, aborted
    }

    /// A config decided and about to be published: kept before the upload, so a process killed between deciding
    /// and publishing leaves it for the next step to finish (never to decide twice).
    public struct Pending: Sendable, Hashable, Codable {
        /// The decision that made it.
        public var decision: RolloutDecision
        /// The exact bytes to publish.
        public var body: String
    }

    /// The feature whose rollout this is.
    public var feature: String
    /// The arm the plan moves.
    public var arm: String
    /// Where the configs are published (as `hybrid config publish --to`).
    public var destination: String
    /// Running, or how it ended.
    public var status: Status
    /// The stage in force: an index into the plan's stages.
    public var stage: Int
    /// The arm's percentage in force.
    public var percentage: Double
    /// The config version that put the arm at `percentage`.
    public var stageVersion: Int
    /// When that version was published.
    public var stageStartedAt: Date
    /// Per guardrail metric, the harm-side bound of its always-valid interval intersected over this stage's looks
    /// (the lower bound of a metric where higher hurts, the upper bound of adherence).
    public var bounds: [String: Double] = [:]
    /// A decided config not yet confirmed published.
    public var pending: Pending?
    /// Every decision that changed something, oldest first.
    public var decisions: [RolloutDecision] = []
    /// The last look, whatever it decided (a hold is kept here, not in `decisions`).
    public var lastCheck: RolloutDecision?
    /// Every look's guardrail figures, oldest first, for the intervals over time (the last 1,000 kept).
    public var history: [RolloutDecision] = []

    /// A rollout starting at `stage` (at `percentage`) with config `version`, published at `date`.
    public init(
        feature: String, arm: String, destination: String, stage: Int, percentage: Double, stageVersion: Int, stageStartedAt: Date
    ) {
        self.feature = feature
        self.arm = arm
        self.destination = destination
        status = .running
        self.stage = stage
        self.percentage = percentage
        self.stageVersion = stageVersion
        self.stageStartedAt = stageStartedAt
    }

    /// The state after `decision` took effect at `version` (published at `date`).
    public func applying(_ decision: RolloutDecision, version: Int, at date: Date) -> RolloutState {
        var next = self
        next.pending = nil
        next.decisions.append(decision)
        switch decision.action {
        case .advance, .start, .adopt:
            next.stage = decision.stage
            next.percentage = decision.percentage
            next.stageVersion = version
            next.stageStartedAt = date
            next.bounds = [:]
            if decision.percentage >= 100 { next.status = .completed }
        case .rollBack:
            next.percentage = 0
            next.stageVersion = version
            next.status = .rolledBack
        case .abort:
            next.status = .aborted
        case .hold:
            break
        }
        return next
    }

    /// The state after a look: the look kept as the last one and, with its guardrail figures, in the history under
    /// the stage it judged (an advance's own percentage is the next stage's); its bounds the running ones.
    public func recording(_ check: RolloutDecision, bounds: [String: Double]) -> RolloutState {
        var next = self
        next.lastCheck = check
        next.bounds = bounds
        if !check.guardrails.isEmpty {
            var judged = check
            (judged.stage, judged.percentage, judged.configVersion) = (stage, percentage, stageVersion)
            next.history.append(judged)
            if next.history.count > 1_000 { next.history.removeFirst(next.history.count - 1_000) }
        }
        return next
    }

    /// The state as the store keeps it.
    public func encoded() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// A state read back from the store.
    public static func decoded(_ body: String) throws -> RolloutState {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(RolloutState.self, from: Data(body.utf8))
    }
}
