import ArgumentParser
import Foundation
import HybridRunner
import HybridStore
import HybridTransport

/// `hybrid merge OUT IN…`: the databases of a run's shards (or of resumed copies) joined into one.
struct MergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the databases of a run's shards (`eval --shard I/N`) or resumed copies into one database.",
        discussion: """
            A result key found in several files with the same content is kept once; with different content it is a \
            conflict and nothing is written. The merged run is completed only when every planned key is present; \
            missing keys are listed (exactly when the run's dataset file is found unchanged, or given with --dataset). \
            Merging the same files again changes nothing.
            Exit codes: 0 merged and complete; 4 merged, but planned keys are missing (0 with --allow-incomplete); \
            1 a conflict (nothing written) or another error.
            """)

    @Argument(help: "The database to write (created when missing; may already hold runs).")
    var output: String

    @Argument(help: "The databases to read (never changed).")
    var inputs: [String]

    @Option(help: "The run's dataset, to name every missing key (default: the path the run recorded, when that file is unchanged).")
    var dataset: String?

    @Flag(help: "Exit 0 even when planned keys are missing (the merged run stays interrupted and resumable).")
    var allowIncomplete = false

    /// How many missing keys or conflicts are printed; the rest are counted.
    static let listed = 20

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("give the output database and at least one input: hybrid merge OUT IN…") }
        _ = try files()
    }

    /// OUT and IN… as SQLite paths, parsed as `--db` is: a URL is refused, never taken for a file name. Merge
    /// joins files only; workers on PostgreSQL already share one database, so there is nothing to merge there.
    func files() throws -> (output: String, inputs: [String]) {
        let paths = try ([output] + inputs).map { text throws(ValidationError) in
            guard case .sqlite(let path) = try StoreLocation(parsing: text, source: "hybrid merge") else {
                throw ValidationError(
                    "hybrid merge joins SQLite files; \(URLRedaction.redact(text)) is PostgreSQL, where workers already share one database")
            }
            return path
        }
        return (paths[0], Array(paths.dropFirst()))
    }

    func run() async throws {
        try await CLIOutput.run {
            let files = try files()
            let outcome = try RunMerger(output: files.output, inputs: files.inputs).merge(plannedKeys: plannedKeys)
            guard outcome.conflicts.isEmpty else {
                for conflict in outcome.conflicts.prefix(Self.listed) { CLIOutput.error("conflict: \(conflict)") }
                if outcome.conflicts.count > Self.listed {
                    CLIOutput.error("… and \(outcome.conflicts.count - Self.listed) more conflicts")
                }
                throw CLIError("\(outcome.conflicts.count) conflicts; nothing was written to \(output)")
            }
            for run in outcome.runs { report(run) }
            if outcome.snapshotsCopied > 0 { print("copied \(outcome.snapshotsCopied) config snapshots") }
            if !allowIncomplete, outcome.runs.contains(where: { !$0.isComplete }) {
                CLIOutput.error("some planned keys are missing: run the missing shard again, or `hybrid eval --resume RUN --db \(output)` to fill them in")
                throw ExitCode(4)
            }
        }
    }

    private func report(_ run: MergedRun) {
        let id = run.record.id
        print(
            "run \(id): \(run.present)/\(run.record.plannedCount) keys in \(output) (\(run.inserted) written now, "
                + "\(run.duplicates) duplicates with the same content), \(run.record.status.rawValue)")
        guard !run.isComplete else { return }
        let count = run.missing.count + run.missingUnlisted
        print("run \(id): \(count) planned keys missing:")
        for key in run.missing.prefix(Self.listed) { print("  missing \(key)") }
        if run.missing.count > Self.listed { print("  … and \(run.missing.count - Self.listed) more") }
        if run.missingUnlisted > 0 {
            print("  \(run.missingUnlisted) more of cases no input holds (give --dataset to list them)")
        }
    }

    /// Every key the run planned, from its dataset when the file is there and unchanged; nil otherwise (the merger
    /// then names only the missing keys of cases some input holds).
    func plannedKeys(_ run: RunRecord) -> [ResultKey]? {
        guard let plan = RecordedPlan(run: run) else { return nil }
        let path = dataset ?? run.datasetPath
        let skipInvalid = run.arguments["skipInvalid"]?.boolValue ?? false
        guard let data = try? Dataset.load(path: path, skipInvalid: skipInvalid) else {
            if dataset != nil { CLIOutput.error("warning: cannot read dataset \(path); missing keys are inferred") }
            return nil
        }
        guard data.contentHash == run.datasetHash else {
            CLIOutput.error("warning: \(path) is not the dataset run \(run.id) read (its hash differs); missing keys are inferred")
            return nil
        }
        return plan.keys(runID: run.id, dataset: data)
    }
}
