/// One run's results across every file that holds part of it, read once before anything is written: which keys are
/// present, which repeat with the same content, which conflict.
struct MergeScan {
    let runID: String
    /// The run's record in each file that holds it, in source order.
    let parts: [RunPart]
    /// Each key present, with the file it was first seen in and the hash of its content there.
    private(set) var present: [ResultKey: Seen] = [:]
    private(set) var conflicts: [MergeConflict] = []
    /// Keys seen again with the same content.
    private(set) var duplicates = 0
    /// Keys first seen in an input, which the merge will write.
    private(set) var newKeys = 0

    struct Seen {
        var source: Int
        var contentHash: Int
    }

    init(runID: String, parts: [RunPart], sources: [MergeSource]) throws(StoreError) {
        self.runID = runID
        self.parts = parts
        for part in parts {
            let source = sources[part.source]
            try source.forEachResult(run: runID) { result in try record(result, from: part.source, sources: sources) }
        }
    }

    /// A key's first sighting is remembered by its content hash; a later one with another hash is compared field
    /// by field against the first file's row (the hash alone could only say "something differs").
    private mutating func record(_ result: ResultRecord, from source: Int, sources: [MergeSource]) throws {
        let hash = result.hashValue
        guard let seen = present[result.key] else {
            present[result.key] = Seen(source: source, contentHash: hash)
            if !sources[source].isOutput { newKeys += 1 }
            return
        }
        let fields = seen.contentHash == hash ? [] : try sources[seen.source].result(result.key).map {
            result.differingFields(from: $0)
        } ?? []
        if fields.isEmpty {
            duplicates += 1
        } else {
            conflicts.append(MergeConflict(
                runID: runID, key: result.key, subject: "result \(result.key)",
                files: [sources[seen.source].path, sources[source].path], fields: fields))
        }
    }

    /// The run as the merge writes it, with its missing keys: exactly, from `plannedKeys`, or else inferred from
    /// the case ids present × the plan's arms × its repeats (keys of cases no file holds are only counted).
    func mergedRun(sources: [MergeSource], plannedKeys: (RunRecord) -> [ResultKey]?) -> MergedRun {
        let records = parts.map(\.record)
        let base = records[0]
        var missing: [ResultKey]
        if let planned = plannedKeys(base) {
            missing = planned.filter { present[$0] == nil }
        } else {
            missing = inferredPlan(base).filter { present[$0] == nil }
        }
        missing.sort { ($0.caseID, $0.armID, $0.repeatIndex) < ($1.caseID, $1.armID, $1.repeatIndex) }
        let unlisted = max(0, base.plannedCount - present.count - missing.count)
        let complete = missing.isEmpty && unlisted == 0
        return MergedRun(
            record: RunRecord.merged(records, complete: complete), present: present.count, inserted: 0,
            duplicates: duplicates, missing: missing, missingUnlisted: unlisted)
    }

    /// Case ids present × the arms and repeats the run recorded (or, for runs stored before the plan was
    /// recorded, those present).
    private func inferredPlan(_ run: RunRecord) -> [ResultKey] {
        let keys = present.keys
        let plan = run.arguments["plan"]
        let arms = plan?["arms"]?.arrayValue?.compactMap(\.stringValue) ?? Array(Set(keys.map(\.armID)))
        let repeats = plan?["repeats"]?.intValue ?? ((keys.map(\.repeatIndex).max() ?? 0) + 1)
        return Set(keys.map(\.caseID)).flatMap { caseID in
            arms.flatMap { arm in
                (0..<repeats).map { ResultKey(runID: runID, caseID: caseID, armID: arm, repeatIndex: $0) }
            }
        }
    }
}
