import Foundation

/// Two arms of a run judged case by case against each other (`hybrid judge-pairs`), with how far the judge can be
/// believed: its position-swap inconsistency, its agreement with people's labels, its self-preference.
public struct PairwiseSummary: Sendable, Hashable, Codable {
    /// One case: what the judge said (nil: its two orders disagreed) and what people said, if labelled.
    public struct Case: Sendable, Hashable, Codable {
        public var caseID: String
        /// "first" (arm A), "second" (arm B), "tie", or nil when the two orders disagreed.
        public var judged: String?
        public var human: String?

        public init(caseID: String, judged: String?, human: String?) {
            self.caseID = caseID
            self.judged = judged
            self.human = human
        }
    }

    public var runID: String
    public var armA: String
    public var armB: String
    public var judge: String
    public var cases: [Case]
    /// The judge's own tokens and dollars (never the arms').
    public var judgeTokens: Int
    public var judgeCostUSD: Double
    /// Set when the judge's model served one of the two arms.
    public var selfPreference: String?

    public init(
        runID: String, armA: String, armB: String, judge: String, cases: [Case], judgeTokens: Int, judgeCostUSD: Double,
        selfPreference: String? = nil
    ) {
        self.runID = runID
        self.armA = armA
        self.armB = armB
        self.judge = judge
        self.cases = cases
        self.judgeTokens = judgeTokens
        self.judgeCostUSD = judgeCostUSD
        self.selfPreference = selfPreference
    }

    public var winsA: Int { cases.filter { $0.judged == "first" }.count }
    public var winsB: Int { cases.filter { $0.judged == "second" }.count }
    public var ties: Int { cases.filter { $0.judged == "tie" }.count }
    public var inconsistent: Int { cases.filter { $0.judged == nil }.count }

    /// The judge's position bias: cases whose two orders disagreed.
    public var positionSwap: WilsonInterval? {
        JudgeReliability.positionSwapInconsistency(inconsistent: inconsistent, judged: cases.count)
    }

    /// Agreement with people over the labelled, consistently judged cases; nil without any.
    public var humanAgreement: WilsonInterval? {
        JudgeReliability.pairAgreement(judge: cases.map(\.judged), human: cases.map(\.human))
    }

    /// Exact two-sided sign test of A's wins against B's over the decided cases (ties and flips left out).
    public var signTest: McNemarExactTest? { McNemarExactTest(b: winsA, c: winsB) }

    /// Whether the judge may decide anything: its agreement with people measured on at least `minimumLabels`
    /// cases with a lower bound at `minimumAgreement` or more, and no self-preference warning.
    public func reliable(minimumAgreement: Double = 0.7, minimumLabels: Int = 10) -> (Bool, String) {
        guard let agreement = humanAgreement, agreement.trials >= minimumLabels else {
            return (false, "its agreement with people is unmeasured (\(humanAgreement?.trials ?? 0) labelled cases judged consistently, \(minimumLabels) needed)")
        }
        guard agreement.lower >= minimumAgreement else {
            return (false, String(format: "its agreement with people is %.0f %% [%.0f %%, %.0f %%], below %.0f %%", agreement.proportion * 100, agreement.lower * 100, agreement.upper * 100, minimumAgreement * 100))
        }
        if let selfPreference { return (false, selfPreference) }
        return (true, String(format: "agrees with people on %.0f %% [%.0f %%, %.0f %%] of %d labelled cases", agreement.proportion * 100, agreement.lower * 100, agreement.upper * 100, agreement.trials))
    }

    /// The summary as Markdown.
    public func markdown() -> String {
        func percent(_ w: WilsonInterval?) -> String {
            w.map { String(format: "%.1f %% [%.1f %%, %.1f %%] (%d of %d)", $0.proportion * 100, $0.lower * 100, $0.upper * 100, $0.successes, $0.trials) } ?? "not measured"
        }
        let (trusted, why) = reliable()
        var lines = [
            "# Pairwise judgement of run \(runID): \(armA) (A) vs \(armB) (B)", "",
            "Judge `\(judge)`, each case asked in both orders; a case whose orders disagree counts as inconsistent, not as a win.", "",
            "| | cases |", "|---|---|",
            "| A preferred | \(winsA) |", "| B preferred | \(winsB) |", "| tie | \(ties) |", "| inconsistent (orders disagree) | \(inconsistent) |", "",
            "- position-swap inconsistency: \(percent(positionSwap))",
            "- agreement with people: \(percent(humanAgreement))",
            "- self-preference: \(selfPreference ?? "the judge served neither arm")",
            String(format: "- judge usage: %d tokens, $%.6f (not counted in either arm)", judgeTokens, judgeCostUSD),
        ]
        if let test = signTest, test.discordantPairs > 0 {
            lines.append(String(format: "- sign test on decided cases: A %d, B %d, p = %.3g", winsA, winsB, test.pValue))
        }
        lines.append("")
        lines.append(trusted
            ? "The judge is reliable enough to decide on: it \(why)."
            : "**The judge is not reliable enough to decide on**: \(why). Its preferences are shown, not used.")
        return lines.joined(separator: "\n") + "\n"
    }
}
