public import HybridStore

/// Why an evaluation could not start or continue. Failures of single requests are not errors: they are stored.
public enum EvalError: Error, Sendable, CustomStringConvertible {
    /// The feature is not in the config in force.
    case unknownFeature(String, known: [String])
    /// A `--models` or `--variants` name is not in the config.
    case unknownSelection(kind: String, name: String, known: [String])
    /// Nothing to run after narrowing.
    case emptyPlan(String)
    /// A case could not be rendered with the feature's template (missing variable).
    case renderFailed(caseID: String, line: Int, detail: String)
    /// The store failed; results written before this point are kept.
    case store(StoreError)
    /// A streamed dataset turned out to have bad lines after the run had started sending: the run stopped and
    /// nothing was stored (see ``Dataset/open(path:)``).
    case dataset(DatasetError)
    /// `--resume` named a run that does not exist or was made from a different dataset.
    case cannotResume(run: String, reason: String)

    public var description: String {
        switch self {
        case .unknownFeature(let name, let known):
            "unknown feature \"\(name)\" (features in the config: \(known.sorted().joined(separator: ", ")))"
        case .unknownSelection(let kind, let name, let known):
            "unknown \(kind) \"\(name)\" (choose from: \(known.joined(separator: ", ")))"
        case .emptyPlan(let why): "nothing to run: \(why)"
        case .renderFailed(let caseID, let line, let detail):
            "case \(caseID) (line \(line)) cannot be rendered: \(detail)"
        case .store(let error): error.description
        case .dataset(let error): error.description
        case .cannotResume(let run, let reason): "cannot resume run \(run): \(reason)"
        }
    }
}
