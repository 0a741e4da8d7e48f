public import HybridStore
import Foundation

extension JudgeReliabilitySummary {
    /// The figures `eval`/`rescore --judge-labels` measured when `run` started and kept in its arguments; nil when
    /// the judge was not measured then.
    public init?(storedIn run: RunRecord) {
        guard let stored = run.arguments["judgeReliability"],
            let summary = try? JSONValueDecoder().decode(JudgeReliabilitySummary.self, from: stored)
        else { return nil }
        self = summary
    }
}
