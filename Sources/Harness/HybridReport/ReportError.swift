public import Foundation

/// Why a report, comparison or gate evaluation could not be made; each message says what to do.
public enum ReportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The store has no run with this id and no results for it.
    case runNotFound(String)
    /// A baseline or gates file could not be read or decoded.
    case unreadableFile(path: String, reason: String)
    /// A report file could not be written.
    case unwritableFile(path: String, reason: String)
    /// A baseline report was written by a newer schema than this build reads.
    case unsupportedSchemaVersion(path: String, found: Int, supported: Int)
    /// A gates file is well-formed JSON but asks for something impossible.
    case invalidGateSpec(path: String, reason: String)
    /// A field run's report asked for another design than the one its looks were taken under.
    case designChanged(run: String, planned: String, since: Date, requested: String)

    /// "It differs in: kept “0.8 of it on adherence”; asked none. " — the clauses of one design text missing from the
    /// other, so the reader need not compare two long sentences; empty when the designs share no clause structure.
    static func difference(_ planned: String, _ requested: String) -> String {
        func clauses(_ text: String) -> [String] {
            text.replacingOccurrences(of: "; ", with: ", ").components(separatedBy: ", ").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
        }
        let kept = clauses(planned), asked = clauses(requested)
        let onlyKept = kept.filter { !asked.contains($0) }, onlyAsked = asked.filter { !kept.contains($0) }
        guard onlyKept.count + onlyAsked.count < kept.count + asked.count else { return "" }
        func quoted(_ list: [String]) -> String { list.isEmpty ? "none" : list.map { "“\($0)”" }.joined(separator: ", ") }
        return "It differs in: kept \(quoted(onlyKept)); asked \(quoted(onlyAsked)). "
    }

    /// A message a user can act on.
    public var description: String {
        switch self {
        case .runNotFound(let id):
            "run '\(id)' is not in the database; check the run id `hybrid eval` printed, or pass the right --db"
        case .unreadableFile(let path, let reason):
            "cannot read \(path): \(reason)"
        case .unwritableFile(let path, let reason):
            "cannot write \(path): \(reason); check the --out directory exists and is writable"
        case .unsupportedSchemaVersion(let path, let found, let supported):
            "\(path) is report schema version \(found); this build reads up to \(supported). Regenerate the baseline with this build"
        case .invalidGateSpec(let path, let reason):
            "\(path): \(reason)"
        case .designChanged(let run, let planned, let since, let requested):
            "field run \(run) has been read under \(planned) (since \(ISO8601DateFormatter().string(from: since))); this "
                + "report asks for \(requested). \(Self.difference(planned, requested))The design of a running "
                + "experiment cannot change: report it with the design it started with (rollouts.FEATURE.design in the "
                + "config, or --design …), or start a new config version"
        }
    }
}
