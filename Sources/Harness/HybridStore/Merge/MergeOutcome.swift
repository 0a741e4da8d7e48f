/// What `RunMerger.merge` found and did: one entry per run, and every conflict.
///
/// When `conflicts` is not empty nothing was written (`written` is false): a merge is all or nothing.
public struct MergeOutcome: Sendable {
    /// Each run found in the inputs, merged (or as it would have been merged, when a conflict stopped the merge).
    public var runs: [MergedRun]
    /// Keys (or runs, or config snapshots) whose content differs between files.
    public var conflicts: [MergeConflict]
    /// False when conflicts stopped the merge before anything was written.
    public var written: Bool
    /// Config snapshots copied into the output.
    public var snapshotsCopied: Int
}

/// One run of a merge: the record the output holds and how its keys add up.
public struct MergedRun: Sendable {
    /// The run record as written: the inputs' plan, the earliest start, `completed` only when every planned key is
    /// present (else `interrupted`, so `hybrid eval --resume` can fill in the rest), and `mergedShards` in its
    /// arguments instead of one shard.
    public var record: RunRecord
    /// Distinct keys present in the output after the merge.
    public var present: Int
    /// Results newly written to the output by this merge.
    public var inserted: Int
    /// Results found in more than one file with identical content (kept once).
    public var duplicates: Int
    /// Planned keys no file holds, sorted. Listed exactly when the caller gave the planned keys; otherwise only
    /// those of cases some file holds (see `missingUnlisted`).
    public var missing: [ResultKey]
    /// Missing keys that could not be named (cases no file holds, when the planned keys were not given).
    public var missingUnlisted: Int

    /// True when every planned key is present.
    public var isComplete: Bool { missing.isEmpty && missingUnlisted == 0 }
}

/// Two files disagree: the same result key (or the same run, or the same config snapshot) with different content.
public struct MergeConflict: Sendable, Hashable, CustomStringConvertible {
    /// The run concerned; nil for a config snapshot.
    public var runID: String?
    /// The result key; nil when the run records (or a snapshot) conflict.
    public var key: ResultKey?
    /// What conflicts, in words, when it is not a result key (a run record, a config snapshot).
    public var subject: String
    /// The two files, the first one seen first.
    public var files: [String]
    /// The fields whose values differ.
    public var fields: [String]

    public var description: String {
        "\(subject) differs between \(files.joined(separator: " and ")) in \(fields.joined(separator: ", "))"
    }
}
