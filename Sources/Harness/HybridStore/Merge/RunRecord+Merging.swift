import Foundation
import HybridCore

extension RunRecord {
    /// The argument keys a merge reads: the shard one process ran, and the shards a merged run holds.
    static let shardArgument = "shard"
    static let mergedShardsArgument = "mergedShards"

    /// The fields that fix what a run is (dataset, config, plan, seed) and differ from `other`'s. Two files may hold
    /// parts of one run only when this is empty; status, times and the shard are expected to differ.
    func planDifferences(from other: RunRecord) -> [String] {
        var fields: [String] = []
        if features != other.features { fields.append("features") }
        if datasetHash != other.datasetHash { fields.append("datasetHash") }
        if configHash != other.configHash { fields.append("configHash") }
        if configVersion != other.configVersion { fields.append("configVersion") }
        if plannedCount != other.plannedCount { fields.append("plannedCount") }
        if seed != other.seed { fields.append("seed") }
        if arguments["plan"] != other.arguments["plan"] { fields.append("arguments.plan") }
        return fields
    }

    /// The shards this record holds: its own `shard`, or the `mergedShards` of an earlier merge.
    var shards: Set<String> {
        var found = Set(arguments[Self.mergedShardsArgument]?.arrayValue?.compactMap(\.stringValue) ?? [])
        if let shard = arguments[Self.shardArgument]?.stringValue { found.insert(shard) }
        return found
    }

    /// One record for the parts of a run in several files (the first one's plan, which `planDifferences` found
    /// equal in all): the earliest start, the latest finish, the status the merged keys earn, and every shard named
    /// under `mergedShards` instead of one `shard`, so a resume of the merged run runs the whole plan.
    static func merged(_ parts: [RunRecord], complete: Bool) -> RunRecord {
        var record = parts[0]
        record.startedAt = parts.map(\.startedAt).min() ?? record.startedAt
        record.finishedAt = parts.compactMap(\.finishedAt).max()
        record.status = complete ? .completed : .interrupted
        record.skippedInvalidLines = parts.map(\.skippedInvalidLines).max() ?? 0
        let shards = parts.reduce(into: Set<String>()) { $0.formUnion($1.shards) }
        if case .object(var members) = record.arguments {
            members[shardArgument] = nil
            members[mergedShardsArgument] = shards.isEmpty ? nil : .array(shards.sorted().map { .string($0) })
            record.arguments = .object(members)
        }
        return record
    }
}
