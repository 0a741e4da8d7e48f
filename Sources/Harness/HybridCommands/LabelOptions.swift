import ArgumentParser
import HybridConfig

/// `--label key=value` (repeatable) and `--install-id`: run as an install with these labels would, so the config's
/// conditions select the same overrides the router selects on that device ("as an iOS 18 phone on app 3.1").
struct LabelOptions: ParsableArguments {
    @Option(name: .customLong("label"), help: ArgumentHelp(
        "An app label as the router gets it (repeatable): --label deviceClass=phone-2019 --label appVersion=3.1. The config's conditions pick overrides by them.",
        valueName: "key=value"))
    var pairs: [String] = []

    @Option(help: "The install id a seeded percentile condition buckets (default: hybrid-harness).")
    var installId: String = "hybrid-harness"

    func validate() throws {
        _ = try labels()
    }

    /// The labels as a dictionary; a malformed or repeated key is an error naming it.
    func labels() throws -> [String: String] {
        var out: [String: String] = [:]
        for pair in pairs {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw ValidationError("--label \(pair): write key=value, e.g. --label deviceClass=phone-2019")
            }
            let key = String(pair[..<equals]), value = String(pair[pair.index(after: equals)...])
            guard out[key] == nil else { throw ValidationError("--label \(key) is given twice") }
            out[key] = value
        }
        return out
    }

    /// `document` as an install with these labels sees it (every feature resolved, conditions dropped), and one
    /// line per feature an override applies to; unchanged when no label or condition is set.
    func target(_ document: HybridConfigDocument) throws -> (document: HybridConfigDocument, lines: [String]) {
        let labels = try labels()
        guard !labels.isEmpty || document.conditions.contains(where: { $0.percentile != nil }) else { return (document, []) }
        let (resolved, matched) = document.resolved(labels: labels, installId: installId)
        let shown = labels.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
        var lines = ["labels: \(shown.isEmpty ? "none" : shown) (install \(installId))"]
        for (feature, condition) in matched.sorted(by: { $0.key < $1.key }) {
            let fields = document.features[feature]?.overrides?[condition]?.fieldNames.joined(separator: ", ") ?? ""
            lines.append("  \(feature): condition \(condition) overrides \(fields)")
        }
        if matched.isEmpty { lines.append("  no condition matches; every feature as written") }
        return (resolved, lines)
    }
}
