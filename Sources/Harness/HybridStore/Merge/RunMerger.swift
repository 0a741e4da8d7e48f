import Foundation
import GRDB

/// Joins the database files of a run's shards (and of resumed runs) into one file: `hybrid merge OUT IN…`.
///
/// - A result key found in several files with the same content is kept once; with different content it is a
///   conflict naming the key, the two files and the fields that differ. Runs whose plans differ (dataset, config,
///   arms, cases, repeats, seed) conflict too.
/// - All or nothing: every file is read and compared before anything is written, and the writes are one
///   transaction, so a conflict (or a crash) leaves the output as it was.
/// - The merged run is `completed` only when every planned key is present; missing keys are listed.
/// - Idempotent: merging the same inputs again finds every key already present with the same content and
///   writes nothing. Inputs are opened read-only and never changed.
/// - Config snapshots (the loader's last-known-good history) are copied; the response cache and spend counters are
///   not (reports do not read them, and adding spend twice would be wrong).
public struct RunMerger: Sendable {
    /// The database written; created when missing, and may already hold runs (an earlier merge, other runs).
    public var output: String
    /// The database files read.
    public var inputs: [String]

    /// A merger of `inputs` into `output`.
    public init(output: String, inputs: [String]) {
        self.output = output
        self.inputs = inputs
    }

    /// Merges every run found in the inputs.
    ///
    /// - Parameter plannedKeys: every key a run planned, when the caller can rebuild them (the CLI does from the
    ///   dataset), so missing keys are named exactly; nil infers them from the case ids the files hold.
    public func merge(plannedKeys: (RunRecord) -> [ResultKey]? = { _ in nil }) throws(StoreError) -> MergeOutcome {
        let sources = try openSources()
        var conflicts: [MergeConflict] = []
        var runs: [MergeScan] = []
        for (id, parts) in Self.runsByID(try sources.map { source throws(StoreError) in try source.runs() }) {
            conflicts += Self.planConflicts(runID: id, parts: parts, sources: sources)
            let scan = try MergeScan(runID: id, parts: parts, sources: sources)
            conflicts += scan.conflicts
            runs.append(scan)
        }
        let snapshots = try SnapshotPlan(sources: sources)
        conflicts += snapshots.conflicts
        var merged = runs.map { $0.mergedRun(sources: sources, plannedKeys: plannedKeys) }
        guard conflicts.isEmpty else {
            return MergeOutcome(runs: merged, conflicts: conflicts, written: false, snapshotsCopied: 0)
        }
        let outputSource = sources.first(where: \.isOutput)
        let existing = runs.map { scan in scan.parts.first { sources[$0.source].isOutput }?.record }
        let changes = zip(merged, existing).contains { $0.record != $1 } || runs.contains { $0.newKeys > 0 }
            || !snapshots.toCopy.isEmpty
        if changes || outputSource == nil {
            let database: HybridDatabase
            if let outputSource { database = outputSource.database } else { database = try HybridDatabase(path: output) }
            let inserted = try Self.write(merged, existing: existing, snapshots: snapshots.toCopy, sources: sources, into: database)
            for index in merged.indices { merged[index].inserted = inserted[index] }
        }
        return MergeOutcome(runs: merged, conflicts: [], written: true, snapshotsCopied: snapshots.toCopy.count)
    }

    /// The output first when it exists (its rows count as present), then the inputs, read-only.
    private func openSources() throws(StoreError) -> [MergeSource] {
        guard !inputs.isEmpty else {
            throw StoreError.invalidValue(field: "inputs", reason: "give at least one database file to merge")
        }
        let outputPath = Self.canonical(output)
        if let same = inputs.first(where: { Self.canonical($0) == outputPath }) {
            throw StoreError.invalidValue(
                field: "inputs", reason: "\(same) is also the output; merge into a new file or leave it out of the inputs")
        }
        var sources: [MergeSource] = []
        if FileManager.default.fileExists(atPath: output) {
            sources.append(MergeSource(path: output, database: try HybridDatabase(path: output), isOutput: true))
        }
        for input in inputs {
            sources.append(MergeSource(path: input, database: try HybridDatabase.openReadOnly(path: input), isOutput: false))
        }
        return sources
    }

    private static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// Run ids in order of first appearance, each with the record every file holds for it.
    private static func runsByID(_ perSource: [[RunRecord]]) -> [(String, [RunPart])] {
        var order: [String] = []
        var parts: [String: [RunPart]] = [:]
        for (source, records) in perSource.enumerated() {
            for record in records {
                if parts[record.id] == nil { order.append(record.id) }
                parts[record.id, default: []].append(RunPart(source: source, record: record))
            }
        }
        return order.map { ($0, parts[$0]!) }
    }

    /// A conflict for each file whose record of the run has another plan than the first file's.
    private static func planConflicts(runID: String, parts: [RunPart], sources: [MergeSource]) -> [MergeConflict] {
        parts.dropFirst().compactMap { part in
            let fields = part.record.planDifferences(from: parts[0].record)
            guard !fields.isEmpty else { return nil }
            return MergeConflict(
                runID: runID, key: nil, subject: "run \(runID)", files: [sources[parts[0].source].path, sources[part.source].path],
                fields: fields)
        }
    }

    /// One transaction: each run record, then the inputs' results (the unique key skips those already present,
    /// which the scan proved identical), then the new config snapshots. Returns the results inserted per run.
    private static func write(
        _ runs: [MergedRun], existing: [RunRecord?], snapshots: [SnapshotRow], sources: [MergeSource],
        into database: HybridDatabase
    ) throws(StoreError) -> [Int] {
        do {
            return try database.writer.write { db in
                var inserted: [Int] = []
                for (run, before) in zip(runs, existing) {
                    if run.record != before { try Stored(run.record).save(db) }
                    var count = 0
                    for source in sources where !source.isOutput {
                        try source.forEachResult(run: run.record.id) { result in
                            if try SQLiteResultStore.insertIfAbsent(result, db: db, path: database.path) { count += 1 }
                        }
                    }
                    inserted.append(count)
                }
                for snapshot in snapshots {
                    try db.execute(sql: SnapshotRow.insertSQL, arguments: snapshot.insertArguments)
                }
                // The config each run ran with, so the merged file is judged under it as each shard was.
                for hash in Set(runs.compactMap(\.record.configHash)) {
                    guard let body = try sources.lazy.filter({ !$0.isOutput }).compactMap({ try $0.runConfig(hash: hash) }).first else { continue }
                    try db.execute(
                        sql: "INSERT INTO run_configs (config_hash, body) VALUES (?, ?) ON CONFLICT (config_hash) DO NOTHING",
                        arguments: [hash, body])
                }
                return inserted
            }
        } catch {
            throw database.mapError(error, operation: "merge into \(database.path)")
        }
    }
}

/// A run's record as one file holds it.
struct RunPart {
    /// Index into the merge's sources.
    var source: Int
    var record: RunRecord
}
