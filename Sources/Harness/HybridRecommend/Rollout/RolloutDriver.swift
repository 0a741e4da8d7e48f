public import Foundation
import HybridConfig
import HybridReport
public import HybridStore

/// `hybrid rollout` with its I/O: the state in the store, the stage's field events, the published config, and the
/// publisher. Each call does one thing and keeps it: a decision to change the config is written (as pending, under
/// the state's revision) before the upload and confirmed after it, so a process killed in between leaves the next
/// call to finish that upload rather than to decide again, and of two processes acting at once only the one whose
/// write lands publishes.
public struct RolloutDriver: Sendable {
    public var store: any FieldEventStore
    public var publisher: ConfigPublisher
    public var options: ConfigPublisher.Options
    /// The family-wise false-rollback rate of every plan.
    public var alpha = 0.05
    /// Now; tests move it.
    public var now: @Sendable () -> Date = { Date() }

    public init(store: any FieldEventStore, publisher: ConfigPublisher, options: ConfigPublisher.Options) {
        self.store = store
        self.publisher = publisher
        self.options = options
    }

    /// The state of `feature`'s rollout; nil when none was started.
    public func state(feature: String) async throws -> RolloutState? {
        try await record(feature).map { try RolloutState.decoded($0.body) }
    }

    /// Starts `feature`'s rollout from the config published at `destination`: publishes its first stage, or takes
    /// the stage the arm is already at.
    public func start(feature: String, destination: String) async throws -> RolloutDecision {
        let existing = try await record(feature)
        let earlier = try existing.map { try RolloutState.decoded($0.body) }
        if let earlier, earlier.status == .running {
            throw RolloutError("the rollout of \(feature) is already running (stage \(RolloutDecision.percent(earlier.percentage))); see `hybrid rollout status \(feature)`")
        }
        let published = try await fetch(destination)
        let (plan, arm) = try Self.plan(of: feature, in: published)
        let at = now()
        let current = published.rollouts[feature]?.arms.first { $0.name == arm }?.percentage ?? 0
        if let stage = plan.stageIndex(of: current) {
            let decision = RolloutDecision(
                at: at, action: .adopt, stage: stage, percentage: current, configVersion: published.version,
                reason: "arm \(arm) is already at stage \(RolloutDecision.percent(current)) in config v\(published.version)")
            var state = RolloutState(
                feature: feature, arm: arm, destination: destination, stage: stage, percentage: current,
                stageVersion: published.version, stageStartedAt: at)
            state.decisions = earlier?.decisions ?? []
            state = state.applying(decision, version: published.version, at: at)
            guard try await store.saveRollout(feature: feature, body: try state.encoded(), replacing: existing?.revision) != nil else {
                throw Self.raced(feature)
            }
            return decision
        }
        let decision = RolloutDecision(
            at: at, action: .start, stage: 0, percentage: plan.stages[0], configVersion: published.version + 1,
            reason: "first stage of \(plan.stages.map(RolloutDecision.percent).joined(separator: ", "))")
        var state = RolloutState(
            feature: feature, arm: arm, destination: destination, stage: 0, percentage: 0, stageVersion: published.version,
            stageStartedAt: at)
        // A new rollout of the feature keeps the decisions of the ones before it.
        state.decisions = earlier?.decisions ?? []
        return try await commit(decision, base: published, state: state, revision: existing?.revision)
    }

    /// One look at `feature`'s rollout: finishes a publish an interrupted call left, else judges the stage and holds,
    /// advances or rolls back.
    public func step(feature: String) async throws -> RolloutDecision {
        guard let record = try await record(feature) else {
            throw RolloutError("no rollout of \(feature) in the store; start one with `hybrid rollout start \(feature) --to URL`")
        }
        let state = try RolloutState.decoded(record.body)
        if let pending = state.pending { return try await finish(pending, state: state, revision: record.revision) }
        let published = try await fetch(state.destination)
        let (plan, _) = try Self.plan(of: feature, in: published)
        let at = now()
        if state.status == .running, published.version != state.stageVersion {
            let decision = RolloutDecision(
                at: at, action: .hold, stage: state.stage, percentage: state.percentage, configVersion: state.stageVersion,
                reason: "config v\(published.version) was published at \(state.destination) outside the rollout (its stage is v\(state.stageVersion)): abort and start again")
            try await keep(state.recording(decision, bounds: state.bounds), feature: feature, revision: record.revision)
            return decision
        }
        let look = RolloutController(plan: plan, alpha: alpha).look(state: state, analysis: try await analysis(of: state), now: at)
        switch look.decision.action {
        case .advance, .rollBack:
            var decision = look.decision
            decision.configVersion = published.version + 1
            return try await commit(decision, base: published, state: state.recording(decision, bounds: look.bounds), revision: record.revision)
        default:
            try await keep(state.recording(look.decision, bounds: look.bounds), feature: feature, revision: record.revision)
            return look.decision
        }
    }

    /// Stops `feature`'s rollout where it is; the config in force stays.
    public func abort(feature: String, reason: String) async throws -> RolloutDecision {
        guard let record = try await record(feature) else { throw RolloutError("no rollout of \(feature) in the store") }
        let state = try RolloutState.decoded(record.body)
        let decision = RolloutDecision(
            at: now(), action: .abort, stage: state.stage, percentage: state.percentage, configVersion: state.stageVersion,
            reason: reason)
        var next = state.applying(decision, version: state.stageVersion, at: decision.at)
        next.pending = nil
        try await keep(next, feature: feature, revision: record.revision)
        return decision
    }

    // MARK: - Steps

    /// The field analysis of the stage's events (see ``RolloutController/stageAnalysis(_:state:)``).
    private func analysis(of state: RolloutState) async throws -> FieldAnalysis? {
        let events = try await store.events(run: FieldRunID.make(feature: state.feature, configVersion: state.stageVersion))
        return RolloutController.stageAnalysis(events, state: state)
    }

    /// Writes the decision as pending, publishes its config, and confirms it.
    private func commit(
        _ decision: RolloutDecision, base: HybridConfigDocument, state: RolloutState, revision: Int?
    ) async throws -> RolloutDecision {
        let document = RolloutController.document(
            base, feature: state.feature, arm: state.arm, percentage: decision.percentage, decision: decision, now: decision.at)
        let problems = RolloutStageCheck.problems(document, feature: state.feature, arm: state.arm, percentage: decision.percentage)
        guard problems.isEmpty else {
            throw RolloutError("the config of stage \(RolloutDecision.percent(decision.percentage)) fails the router check: " + problems.joined(separator: "; "))
        }
        var pending = state
        pending.pending = RolloutState.Pending(decision: decision, body: String(decoding: document.encodedJSON(), as: UTF8.self))
        guard let written = try await store.saveRollout(feature: state.feature, body: try pending.encoded(), replacing: revision) else {
            throw Self.raced(state.feature)
        }
        return try await finish(pending.pending!, state: pending, revision: written.revision)
    }

    /// Publishes a pending decision's config unless the destination already has it, then confirms it.
    private func finish(_ pending: RolloutState.Pending, state: RolloutState, revision: Int) async throws -> RolloutDecision {
        let version = pending.decision.configVersion
        let published = try? await fetch(state.destination)
        if (published?.version ?? -1) < version {
            do {
                _ = try await publisher.publish(Data(pending.body.utf8), to: state.destination, options: options)
            } catch {
                throw RolloutError("could not publish config v\(version) to \(state.destination): \(error); the decision is kept and the next step publishes it")
            }
        }
        let confirmed = state.applying(pending.decision, version: version, at: now())
        try await keep(confirmed, feature: state.feature, revision: revision)
        return pending.decision
    }

    private func keep(_ state: RolloutState, feature: String, revision: Int) async throws {
        guard try await store.saveRollout(feature: feature, body: try state.encoded(), replacing: revision) != nil else {
            throw Self.raced(feature)
        }
    }

    private func record(_ feature: String) async throws -> RolloutRecord? {
        try await store.rolloutRecord(feature: feature)
    }

    /// The config published at `destination`, validated as apps load it.
    private func fetch(_ destination: String) async throws -> HybridConfigDocument {
        let fetcher = ConfigFetcher(transport: publisher.transport)
        switch try await fetcher.fetch(destination) {
        case .fetched(let payload):
            return try ConfigValidator.load(payload.body, promptFiles: options.promptFiles).document
        case .notModified:
            throw RolloutError("\(destination) answered 304 to a fetch without an ETag")
        }
    }

    static func plan(of feature: String, in document: HybridConfigDocument) throws -> (RolloutPlan, String) {
        guard let rollout = document.rollouts[feature], let plan = rollout.plan, let arm = plan.armName(in: rollout) else {
            throw RolloutError("config v\(document.version) has no rollouts.\(feature).plan: add one (stages, guardrails) and publish it first")
        }
        return (plan, arm)
    }

    static func raced(_ feature: String) -> RolloutError {
        RolloutError("another `hybrid rollout` acted on \(feature) first (the state's revision moved); nothing was published by this one")
    }
}
