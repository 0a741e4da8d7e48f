/// The config snapshots a merge copies: those (source URL, version) pairs the output does not hold yet. The same
/// pair with other bytes or another signature in two files is a conflict.
struct SnapshotPlan {
    private(set) var toCopy: [SnapshotRow] = []
    private(set) var conflicts: [MergeConflict] = []

    init(sources: [MergeSource]) throws(StoreError) {
        var seen: [String: (path: String, row: SnapshotRow)] = [:]
        for source in sources {
            for row in try source.snapshots() {
                let id = "config snapshot \(row.sourceURL) version \(row.version)"
                guard let first = seen[id] else {
                    seen[id] = (source.path, row)
                    if !source.isOutput { toCopy.append(row) }
                    continue
                }
                var fields: [String] = []
                if first.row.rawBytes != row.rawBytes { fields.append("raw_bytes") }
                if first.row.signature != row.signature { fields.append("signature") }
                if !fields.isEmpty {
                    conflicts.append(MergeConflict(runID: nil, key: nil, subject: id, files: [first.path, source.path], fields: fields))
                }
            }
        }
    }
}
