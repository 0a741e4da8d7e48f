import Foundation
public import HybridRouter

/// What `RouterCheck` found: per case, the simulator's prediction beside what the real router did.
public struct RouterCheckReport: Sendable {
    /// What one request came to, as predicted or as routed.
    public struct Figures: Sendable, Equatable {
        /// The model that served (passed every check the policy falls back on); nil when none did.
        public var servedBy: String?
        /// The model whose answer the app got (the server, or the best failing answer); nil when it got none.
        public var deliveredBy: String?
        /// The answer the app got passed every check.
        public var adherent: Bool
        /// Dollars charged for every call made.
        public var costUSD: Double
        /// Time from the request to its answer or error, in milliseconds.
        public var latencyMs: Double
        /// The input rule that chose the route; nil for the feature's own route (or no answer: a failed request's
        /// error does not name it).
        public var inputRule: String? = nil

        /// The ways `other` differs from these figures: served model, delivered model, adherence, cost (to a
        /// billionth of a dollar), latency (to 1 ms), and the input rule when both delivered an answer.
        public func differences(from other: Figures) -> [String] {
            var out: [String] = []
            // A request without an answer does not name its rule (the router's error has no field for it).
            if inputRule != other.inputRule, deliveredBy != nil, other.deliveredBy != nil { out.append("rule \(inputRule ?? "none") vs \(other.inputRule ?? "none")") }
            if servedBy != other.servedBy { out.append("served by \(servedBy ?? "none") vs \(other.servedBy ?? "none")") }
            if deliveredBy != other.deliveredBy { out.append("delivered \(deliveredBy ?? "nothing") vs \(other.deliveredBy ?? "nothing")") }
            if adherent != other.adherent { out.append("adherent \(adherent) vs \(other.adherent)") }
            if abs(costUSD - other.costUSD) > 1e-9 { out.append(String(format: "cost $%.6f vs $%.6f", costUSD, other.costUSD)) }
            if abs(latencyMs - other.latencyMs) >= 1 { out.append(String(format: "latency %.1f ms vs %.1f ms", latencyMs, other.latencyMs)) }
            return out
        }
    }

    /// One (case, repeat).
    public struct Case: Sendable {
        /// The case and repeat.
        public var key: CaseKey
        /// What the simulator predicted.
        public var simulated: Figures
        /// What the router did.
        public var router: Figures
        /// The router's attempts, which say why it moved on.
        public var attempts: [RouteAttempt]
        /// Replayed through `Router.stream` (a streamed run is replayed both ways) rather than `generate`.
        public var streamed = false

        /// Simulator versus router; empty when they agree.
        public var differences: [String] { simulated.differences(from: router) }
        /// Whether they agree on everything compared.
        public var agrees: Bool { differences.isEmpty }
    }

    /// The replayed run.
    public var runID: String
    /// Its feature.
    public var feature: String
    /// The simulator's policy, read from the config's routing block.
    public var policy: ReplayPolicy
    /// Every case both replayed.
    public var cases: [Case]
    /// Cases left out because an arm the walk reached has no stored result.
    public var incompleteCases: Int
    /// Whether the router got each case's real inputs (from the run's dataset); false: one short input for all, so
    /// the context-window, truncation and minimum-input rules were not exercised.
    public var inputsReplayed = false

    /// Cases where simulator and router agree.
    public var agreeing: Int { cases.count { $0.agrees } }
    /// Whether every case agrees.
    public var allAgree: Bool { agreeing == cases.count }
    /// Cases on which the router or the simulator delivered an answer; agreement on the others proves nothing.
    public var answeredCases: Int { cases.count { $0.router.deliveredBy != nil || $0.simulated.deliveredBy != nil } }
    /// Whether the check has anything to say: at least one case was answered. A run whose models all failed
    /// (a local server that could not start, no keys) agrees "100 %" on nothing.
    public var hasEvidence: Bool { answeredCases > 0 }

    /// Per case and in total, disagreements listed with the router's attempts.
    public func render() -> String {
        var lines = ["router check of run \(runID) (\(feature)): \(policy)"]
        if !inputsReplayed {
            lines.append("  (the run's dataset is not at hand: every case was replayed with one short input, so context-window, "
                + "truncation and minimum-input rules were not exercised)")
        }
        guard hasEvidence else {
            lines.append("nothing to check: no model answered any of the \(cases.count) replayed cases of run \(runID), so "
                + "agreement would prove nothing; `hybrid report \(runID)` says why each model failed")
            return lines.joined(separator: "\n")
        }
        for item in cases {
            let figures = item.router
            let what = figures.servedBy.map { "served by \($0)" } ?? figures.deliveredBy.map { "best failing answer from \($0)" } ?? "no answer"
            let status = item.agrees ? "agree" : "DISAGREE"
            let rule = figures.inputRule.map { "rule \($0), " } ?? ""
            lines.append(String(format: "  %@%@: %@, %@%@, %@, $%.6f, %.1f ms: %@", item.key.description, item.streamed ? " (stream)" : "", status, rule, what,
                                figures.adherent ? "adherent" : "not adherent", figures.costUSD, figures.latencyMs,
                                item.agrees ? "same as simulated" : item.differences.joined(separator: "; ")))
            if !item.agrees {
                for attempt in item.attempts { lines.append("      \(attempt)") }
            }
        }
        let share = cases.isEmpty ? 0 : Double(agreeing) / Double(cases.count) * 100
        if cases.contains(where: \.streamed) {
            lines.append("  (the run was streamed: every case is replayed as `generate` and as `stream`, first text at its stored time to first token)")
        }
        lines.append(String(format: "agreement: %d of %d cases (%.1f %%)%@", agreeing, cases.count, share,
                            incompleteCases > 0 ? " (\(incompleteCases) incomplete cases left out)" : ""))
        return lines.joined(separator: "\n")
    }
}
