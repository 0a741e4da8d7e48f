/// How the repeats of one case become the one value per case that every interval and test is computed on.
///
/// A case is the unit an eval samples; its repeats (`hybrid eval --repeat k`) measure the model's noise on that
/// case, not more cases. Counting k repeats of n cases as n·k independent pairs shrinks every interval by about √k
/// and turns noise into verdicts, so repeats are reduced first (as Inspect reduces epochs per sample). Scores and
/// latency always reduce by their mean; the reducer chooses what a case's checks become.
public enum RepeatReducer: String, Sendable, Hashable, Codable, CaseIterable {
    /// The case's pass share: passes over checked repeats (0, ⅓, ⅔, 1 at three repeats). The default.
    case mean
    /// 1 when every repeat passed, else 0: pass^k, the stability figure.
    case all
    /// 1 when at least one repeat passed, else 0: pass@k.
    case any

    /// How reports name the reducer.
    public var label: String {
        switch self {
        case .mean: "pass share"
        case .all: "all repeats pass (pass^k)"
        case .any: "any repeat passes (pass@k)"
        }
    }

    /// The reduced value of one case's checked repeats (`passes` of `checked`), or nil when none was checked.
    public func reduce(passes: Int, checked: Int) -> Double? {
        guard checked > 0 else { return nil }
        switch self {
        case .mean: return Double(passes) / Double(checked)
        case .all: return passes == checked ? 1 : 0
        case .any: return passes > 0 ? 1 : 0
        }
    }
}
