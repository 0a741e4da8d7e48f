public import Foundation
public import HybridCore
import GRDB

/// One eval run: what was run, with which dataset and config, and how far it got. A row of `runs`.
///
/// Dates are stored at millisecond precision (GRDB's text format, UTC), so a record read back may differ
/// from the one written by less than a millisecond.
public struct RunRecord: Sendable, Hashable {
    /// Unique run id chosen by the runner; results reference it.
    public var id: String
    /// The features (prompt families) the run covers.
    public var features: [String]
    /// Path of the dataset file as the runner was given it.
    public var datasetPath: String
    /// Content hash of the dataset file, so a resume can refuse a dataset that changed.
    public var datasetHash: String
    /// Version of the config the run used; nil when it ran from a local file without a version.
    public var configVersion: Int?
    /// Content hash of the config the run used; nil when unknown.
    public var configHash: String?
    /// When the run was created.
    public var startedAt: Date
    /// When the run completed or was marked interrupted; nil while running.
    public var finishedAt: Date?
    /// Running, completed or interrupted.
    public var status: RunStatus
    /// The command-line arguments and resolved options as JSON, to reproduce or resume the run.
    /// Never put API keys here: they come from the environment and must not reach the database.
    public var arguments: JSONValue
    /// How many (case, arm, repeat) keys the run planned.
    public var plannedCount: Int
    /// Dataset lines skipped because they did not parse or validate.
    public var skippedInvalidLines: Int
    /// Seed for sampling and shuffling, so a rerun makes the same choices.
    public var seed: UInt64

    /// Creates a run record; never put API keys in `arguments`.
    public init(
        id: String,
        features: [String],
        datasetPath: String,
        datasetHash: String,
        configVersion: Int? = nil,
        configHash: String? = nil,
        startedAt: Date = Date(),
        finishedAt: Date? = nil,
        status: RunStatus = .running,
        arguments: JSONValue = .object([:]),
        plannedCount: Int,
        skippedInvalidLines: Int = 0,
        seed: UInt64
    ) {
        self.id = id
        self.features = features
        self.datasetPath = datasetPath
        self.datasetHash = datasetHash
        self.configVersion = configVersion
        self.configHash = configHash
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.status = status
        self.arguments = arguments
        self.plannedCount = plannedCount
        self.skippedInvalidLines = skippedInvalidLines
        self.seed = seed
    }
}

extension RunRecord: StoredRecord {
    static let databaseTableName = "runs"

    enum Columns {
        static let id = Column("id")
        static let features = Column("features_json")
        static let datasetPath = Column("dataset_path")
        static let datasetHash = Column("dataset_hash")
        static let configVersion = Column("config_version")
        static let configHash = Column("config_hash")
        static let startedAt = Column("started_at")
        static let finishedAt = Column("finished_at")
        static let status = Column("status")
        static let arguments = Column("arguments_json")
        static let plannedCount = Column("planned_count")
        static let skippedInvalidLines = Column("skipped_invalid_lines")
        static let seed = Column("seed")
    }

    init(row: Row) throws {
        let statusName: String = try row.decode(forColumn: Columns.status)
        guard let status = RunStatus(rawValue: statusName) else {
            throw RecordDecodingError(table: Self.databaseTableName, reason: "unknown run status '\(statusName)'")
        }
        self.init(
            id: try row.decode(forColumn: Columns.id),
            features: try StoreJSON.strings(from: row.decode(forColumn: Columns.features), column: "features_json"),
            datasetPath: try row.decode(forColumn: Columns.datasetPath),
            datasetHash: try row.decode(forColumn: Columns.datasetHash),
            configVersion: try row.decode(forColumn: Columns.configVersion),
            configHash: try row.decode(forColumn: Columns.configHash),
            startedAt: try row.decode(forColumn: Columns.startedAt),
            finishedAt: try row.decode(forColumn: Columns.finishedAt),
            status: status,
            arguments: try StoreJSON.value(from: row.decode(forColumn: Columns.arguments), column: "arguments_json"),
            plannedCount: try row.decode(forColumn: Columns.plannedCount),
            skippedInvalidLines: try row.decode(forColumn: Columns.skippedInvalidLines),
            // SQLite integers are signed 64-bit; the seed keeps its bits, not its sign.
            seed: UInt64(bitPattern: try row.decode(Int64.self, forColumn: Columns.seed))
        )
    }

    func encode(to container: inout PersistenceContainer) throws {
        container[Columns.id] = id
        container[Columns.features] = try StoreJSON.encode(features, field: "run features")
        container[Columns.datasetPath] = datasetPath
        container[Columns.datasetHash] = datasetHash
        container[Columns.configVersion] = configVersion
        container[Columns.configHash] = configHash
        // StoreDate, not GRDB's `DateFormatter`: that one loads ICU's locale data, megabytes of a CLI's memory.
        container[Columns.startedAt] = StoreDate.text(startedAt)
        container[Columns.finishedAt] = finishedAt.map(StoreDate.text)
        container[Columns.status] = status.rawValue
        container[Columns.arguments] = try StoreJSON.encode(arguments, field: "run arguments")
        container[Columns.plannedCount] = plannedCount
        container[Columns.skippedInvalidLines] = skippedInvalidLines
        container[Columns.seed] = Int64(bitPattern: seed)
    }
}
