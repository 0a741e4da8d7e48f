import HybridCore
public import HybridStore

/// Whether a stored run may be resumed with a plan: a run's config and plan are fixed when it starts, so a resume
/// under another config, dataset, feature, arms, cases, repeats or seed is refused (it would mix two experiments
/// under one run id), and a completed run is left as it is.
public struct ResumeCheck: Sendable {
    /// The keys the run already stored.
    public var completedKeys: Set<ResultKey>
    /// The run finished every planned result; resuming it sends and changes nothing.
    public var alreadyCompleted: Bool

    /// The key under which ``EvalRunner`` stores the plan's shape in the run's arguments, to compare on resume.
    static let argumentsKey = "plan"
    /// The key under which the run's arguments record its shard (`I/N`), absent for an unsharded run.
    static let shardKey = "shard"

    /// Checks `plan` against the stored run; throws `cannotResume` naming every difference.
    public static func check(_ plan: EvalPlan, store: any ResultStore) async throws(EvalError) -> ResumeCheck {
        let existing: RunRecord?
        let completed: Set<ResultKey>
        do {
            existing = try await store.run(id: plan.runID)
            completed = existing == nil ? [] : try await store.completedKeys(run: plan.runID)
        } catch {
            throw .store(error)
        }
        guard let existing else { throw .cannotResume(run: plan.runID, reason: "no such run in the database") }
        let differences = Self.differences(run: existing, plan: plan, armsWithResults: Set(completed.map(\.armID)))
        if !differences.isEmpty {
            throw .cannotResume(
                run: plan.runID,
                reason: "its plan is fixed when it starts and this one differs: " + differences.joined(separator: "; ")
                    + ". Nothing was changed; resume with the config and dataset it started with, or start a new run")
        }
        return ResumeCheck(completedKeys: completed, alreadyCompleted: existing.status == .completed)
    }

    /// The run's arguments with the plan's shape added under ``argumentsKey``.
    static func arguments(_ arguments: JSONValue, recording plan: EvalPlan) -> JSONValue {
        guard case .object(var members) = arguments else { return arguments }
        members[argumentsKey] = .object([
            "feature": .string(plan.feature),
            "arms": .array(plan.arms.map { .string($0.id) }),
            "cases": .int(plan.dataset.count),
            "repeats": .int(plan.repeats),
        ])
        // Beside the plan, not in it: every shard records the same plan, so `hybrid merge` can compare them.
        members[shardKey] = plan.shard.map { .string($0.description) }
        return .object(members)
    }

    /// Every way `plan` differs from the run as it started, worded for a person: `config hash a1b2… vs c3d4…`.
    /// Runs stored before the plan's shape was recorded are compared by the arms that have results.
    static func differences(run: RunRecord, plan: EvalPlan, armsWithResults: Set<String>) -> [String] {
        var found: [String] = []
        if run.configHash != plan.configHash {
            found.append(
                "config hash \(short(run.configHash)) (version \(run.configVersion.map(String.init) ?? "?")) vs "
                    + "\(short(plan.configHash)) (version \(plan.configVersion))")
        }
        if run.datasetHash != plan.dataset.contentHash {
            let paths = run.datasetPath == plan.dataset.path ? "" : ", \(run.datasetPath) vs \(plan.dataset.path)"
            found.append("dataset hash \(short(run.datasetHash)) vs \(short(plan.dataset.contentHash))\(paths)")
        }
        if run.features != [plan.feature] {
            found.append("feature \(run.features.joined(separator: ",")) vs \(plan.feature)")
        }
        let stored = run.arguments[argumentsKey]
        let storedArms = stored?["arms"]?.arrayValue.map { Set($0.compactMap(\.stringValue)) }
        let plannedArms = Set(plan.arms.map(\.id))
        let added = storedArms.map { plannedArms.subtracting($0) } ?? []
        let removed = (storedArms ?? armsWithResults).subtracting(plannedArms)
        if !added.isEmpty { found.append("arms added: " + added.sorted().joined(separator: ", ")) }
        if !removed.isEmpty { found.append("arms removed: " + removed.sorted().joined(separator: ", ")) }
        if let cases = stored?["cases"]?.intValue, cases != plan.dataset.count {
            found.append("cases \(cases) vs \(plan.dataset.count)")
        }
        if let repeats = stored?["repeats"]?.intValue, repeats != plan.repeats {
            found.append("repeats \(repeats) vs \(plan.repeats)")
        }
        if run.seed != plan.seed { found.append("seed \(run.seed) vs \(plan.seed)") }
        let storedShard = run.arguments[shardKey]?.stringValue
        if storedShard != plan.shard?.description {
            found.append("shard \(storedShard ?? "none") vs \(plan.shard?.description ?? "none")")
        }
        if found.isEmpty && run.plannedCount != plan.plannedCount {
            found.append("planned results \(run.plannedCount) vs \(plan.plannedCount)")
        }
        return found
    }

    /// Enough of a hash to tell two apart in a message.
    private static func short(_ hash: String?) -> String {
        guard let hash else { return "none" }
        let bare = hash.hasPrefix("sha256:") ? String(hash.dropFirst(7)) : hash
        return bare.count > 12 ? String(bare.prefix(12)) + "…" : bare
    }
}
