/// Why a dataset could not be loaded; each case names the file and line so the user can fix it.
public enum DatasetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be read at all.
    case unreadable(path: String, detail: String)
    /// One line (JSONL) or record (CSV) is malformed.
    case invalidLine(path: String, line: Int, detail: String)
    /// Several lines are malformed; all are listed so one run of the command finds them all.
    case invalidLines([DatasetError])
    /// The file parsed but holds no case.
    case empty(path: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let detail): "\(path): cannot read dataset: \(detail)"
        case .invalidLine(let path, let line, let detail): "\(path):\(line): \(detail)"
        case .invalidLines(let errors):
            errors.map(\.description).joined(separator: "\n")
                + "\n\(errors.count) invalid line(s); fix them, or pass --skip-invalid to run without them (the report counts skipped lines)"
        case .empty(let path): "\(path): the dataset has no cases"
        }
    }
}
