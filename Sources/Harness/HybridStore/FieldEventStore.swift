import Foundation

/// Where field runs live: apps' router events, one run per (feature, config version), each event stored once by
/// its id. One protocol so `hybrid collect`, `hybrid ingest`, field reports and `recommend` work the same on the
/// embedded SQLite file (`SQLiteFieldEventStore`) and on a shared PostgreSQL database (`PostgresFieldEventStore`),
/// where several collectors write at once.
public protocol FieldEventStore: Sendable {
    /// Stores `events`, creating their field runs when new; an event whose id is already stored is counted as a
    /// duplicate and left unchanged (uploads are retried, so a re-sent batch must change nothing). Returns once the
    /// events are durable, so a collector may acknowledge them.
    @discardableResult
    func insert(_ events: [FieldEventRecord]) async throws(StoreError) -> FieldEventInsertOutcome

    /// True when `runID` is a field run: reports and `recommend` choose the field path on it.
    func isFieldRun(_ runID: String) async throws(StoreError) -> Bool

    /// The field runs, newest first.
    func fieldRunIDs() async throws(StoreError) -> [String]

    /// Number of events stored for `runID`.
    func eventCount(run runID: String) async throws(StoreError) -> Int

    /// Every event of `runID`, in event id order, so every backend hands a report the same sequence.
    func events(run runID: String) async throws(StoreError) -> [FieldEventRecord]

    /// Every event of the same feature from the field runs of earlier config versions than `runID`'s: the
    /// pre-period a report uses as CUPED's covariate. Empty for the feature's first version.
    func eventsBefore(run runID: String) async throws(StoreError) -> [FieldEventRecord]

    /// Keeps one look of a field report (its always-valid p-values and intervals); a second look at the same event
    /// count replaces nothing and adds nothing.
    func recordLook(_ look: FieldLook) async throws(StoreError)

    /// The looks kept for `runID`, oldest first.
    func looks(run runID: String) async throws(StoreError) -> [FieldLook]

    /// The state `hybrid rollout` keeps for `feature`'s staged rollout; nil before it started.
    func rolloutRecord(feature: String) async throws(StoreError) -> RolloutRecord?

    /// Every feature's rollout state, by feature name.
    func rolloutRecords() async throws(StoreError) -> [RolloutRecord]

    /// Writes `body` as `feature`'s rollout state if the stored revision is still `revision` (nil: nothing stored
    /// yet), and returns the new record; nil when another writer got there first (nothing is written then).
    func saveRollout(feature: String, body: String, replacing revision: Int?) async throws(StoreError) -> RolloutRecord?
}

/// What a batch did to a field store: what a collector answers the uploading app.
public struct FieldEventInsertOutcome: Sendable, Hashable {
    /// Events stored for the first time.
    public var accepted: Int
    /// Events whose id was already stored (re-sent); nothing changed for them.
    public var duplicates: Int
    /// The field runs the batch touched, sorted.
    public var runIDs: [String]

    /// An outcome; stores build it, tests compare it.
    public init(accepted: Int, duplicates: Int, runIDs: [String]) {
        self.accepted = accepted
        self.duplicates = duplicates
        self.runIDs = runIDs
    }
}

extension FieldEventStore {
    /// The pre-period from the run ids alone (`FieldRunID`), so every backend picks the same earlier runs.
    public func eventsBefore(run runID: String) async throws(StoreError) -> [FieldEventRecord] {
        guard let feature = try? FieldRunID.feature(of: runID), let version = try? FieldRunID.version(of: runID) else {
            return []
        }
        let earlier = try await fieldRunIDs().filter { id in
            (try? FieldRunID.feature(of: id)) == feature && ((try? FieldRunID.version(of: id)) ?? .max) < version
        }
        var events: [FieldEventRecord] = []
        for id in earlier.sorted() {
            events += try await self.events(run: id)
        }
        return events
    }
}

/// A field run's id, `field-<feature>-v<version>`, and the feature and version read back from it: stores keep
/// events under the run id only, so both backends decode them the same way.
package enum FieldRunID {
    /// The id of the field run of `feature` at `configVersion`.
    package static func make(feature: String, configVersion: Int) -> String {
        "field-\(feature)-v\(configVersion)"
    }

    /// The feature named by `runID`.
    package static func feature(of runID: String) throws -> String {
        guard runID.hasPrefix("field-"), let range = runID.range(of: "-v", options: .backwards) else {
            throw RecordDecodingError(table: "field_events", reason: "run id '\(runID)' is not a field run id")
        }
        return String(runID[runID.index(runID.startIndex, offsetBy: 6)..<range.lowerBound])
    }

    /// The config version named by `runID`.
    package static func version(of runID: String) throws -> Int {
        guard let range = runID.range(of: "-v", options: .backwards), let version = Int(runID[range.upperBound...])
        else { throw RecordDecodingError(table: "field_events", reason: "run id '\(runID)' has no config version") }
        return version
    }

    /// One run per distinct (feature, version) of `events`, with the first event seen for each (its config hash
    /// goes into the run row), sorted by id so concurrent writers take row locks in the same order.
    package static func firstEvents(of events: [FieldEventRecord]) -> [(id: String, event: FieldEventRecord)] {
        var seen: [String: FieldEventRecord] = [:]
        var previous: (feature: String, version: Int)?
        for event in events where previous.map({ $0 != (event.feature, event.configVersion) }) ?? true {
            previous = (event.feature, event.configVersion)
            if seen[event.runID] == nil { seen[event.runID] = event }
        }
        return seen.keys.sorted().map { ($0, seen[$0]!) }
    }
}
