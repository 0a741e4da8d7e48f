/// How far a judge can be believed, measured on the run rather than assumed: agreement with the people who labelled
/// some cases, how often its pairwise answer flips when the two answers swap places, and whether it favours the arm
/// its own model served.
public enum JudgeReliability {
    /// Pairwise: the share of judged cases whose two orders disagreed (position bias), with its Wilson interval.
    /// A judge that always prefers the first answer shown is inconsistent on every case it does not call a tie.
    public static func positionSwapInconsistency(inconsistent: Int, judged: Int) -> WilsonInterval? {
        WilsonInterval(successes: inconsistent, trials: judged)
    }

    /// Pairwise: agreement with people's preferences over the labelled cases the judge answered consistently, with
    /// its Wilson interval; nil without such cases (no claim without answered cases).
    public static func pairAgreement(judge: [String?], human: [String?]) -> WilsonInterval? {
        let pairs = zip(judge, human).compactMap { j, h in j.flatMap { j in h.map { (j, $0) } } }
        return WilsonInterval(successes: pairs.filter { $0.0 == $0.1 }.count, trials: pairs.count)
    }

    /// Rubric: Cohen's kappa with quadratic weights between the judge's and people's scores on the same cases
    /// (integers in `categories`), the usual measure for ordinal ratings: 1 is perfect agreement, 0 what chance
    /// gives. nil with fewer than two labelled cases, or when neither rater varies (kappa is then undefined).
    public static func weightedKappa(judge: [Int], human: [Int], categories: ClosedRange<Int> = 1...5) -> Double? {
        let pairs = zip(judge, human).filter { categories.contains($0.0) && categories.contains($0.1) }
        guard pairs.count >= 2 else { return nil }
        let k = categories.count
        let n = Double(pairs.count)
        var observed = [[Double]](repeating: [Double](repeating: 0, count: k), count: k)
        var rows = [Double](repeating: 0, count: k)
        var columns = [Double](repeating: 0, count: k)
        for (j, h) in pairs {
            let (a, b) = (j - categories.lowerBound, h - categories.lowerBound)
            observed[a][b] += 1
            rows[a] += 1
            columns[b] += 1
        }
        var disagreement = 0.0
        var expected = 0.0
        for a in 0..<k {
            for b in 0..<k {
                let weight = Double((a - b) * (a - b)) / Double((k - 1) * (k - 1))
                disagreement += weight * observed[a][b] / n
                expected += weight * rows[a] * columns[b] / (n * n)
            }
        }
        guard expected > 0 else { return nil }
        return 1 - disagreement / expected
    }

    /// The weighted kappa's percentile bootstrap interval (cases resampled with replacement, `resamples` times,
    /// seeded so a report is repeatable); nil when fewer than 2 cases or the kappa is undefined in most resamples.
    public static func weightedKappaInterval(
        judge: [Int], human: [Int], categories: ClosedRange<Int> = 1...5, resamples: Int = 2_000, seed: UInt64 = 51
    ) -> (lower: Double, upper: Double)? {
        let pairs = Array(zip(judge, human))
        guard pairs.count >= 2 else { return nil }
        var random = SplitMix64(seed: seed)
        var kappas: [Double] = []
        kappas.reserveCapacity(resamples)
        for _ in 0..<resamples {
            let sample = (0..<pairs.count).map { _ in pairs[Int(random.nextUnit() * Double(pairs.count))] }
            if let kappa = weightedKappa(judge: sample.map(\.0), human: sample.map(\.1), categories: categories) { kappas.append(kappa) }
        }
        guard kappas.count * 2 >= resamples else { return nil }
        kappas.sort()
        let at = { (q: Double) in kappas[min(kappas.count - 1, max(0, Int((q * Double(kappas.count)).rounded(.down))))] }
        return (at(0.025), at(0.975))
    }

    /// Self-preference: among consistent pairwise verdicts between the judge's own arm and another, the share won
    /// by its own arm, against the share other judges gave that arm on the same pairs. With no other judge the
    /// bias cannot be told from quality, and the finding says so instead of a number.
    public struct SelfPreference: Sendable, Hashable {
        /// Wins of the judge's own arm by its own judgement, over the decided (non-tie, consistent) pairs.
        public var ownRate: WilsonInterval?
        /// The same pairs as other judges decided them; nil without another judge.
        public var othersRate: WilsonInterval?
        /// Whether the judge favours its own arm: its own rate's lower bound above the others' upper bound.
        public var flagged: Bool
        /// One line for reports.
        public var finding: String
    }

    /// `own` and `others`: per pair, whether the judge's own arm won (true), lost (false), or nil (tie or
    /// inconsistent); `others` is nil when no second judge judged the pairs.
    public static func selfPreference(judge: String, own: [Bool?], others: [Bool?]?) -> SelfPreference {
        func rate(_ wins: [Bool?]) -> WilsonInterval? {
            let decided = wins.compactMap { $0 }
            return WilsonInterval(successes: decided.filter { $0 }.count, trials: decided.count)
        }
        let ownRate = rate(own)
        guard let others else {
            return SelfPreference(
                ownRate: ownRate, othersRate: nil, flagged: false,
                finding: "\(judge) judged its own arm and no second judge did: self-preference cannot be told apart from quality")
        }
        let othersRate = rate(others)
        guard let ownRate, let othersRate else {
            return SelfPreference(ownRate: ownRate, othersRate: othersRate, flagged: false, finding: "\(judge): no decided pairs to compare")
        }
        let flagged = ownRate.lower > othersRate.upper
        let finding = flagged
            ? "\(judge) prefers its own arm in \(ownRate.successes) of \(ownRate.trials) pairs, other judges in \(othersRate.successes) of \(othersRate.trials): self-preference"
            : "\(judge) prefers its own arm in \(ownRate.successes) of \(ownRate.trials) pairs, other judges in \(othersRate.successes) of \(othersRate.trials): no self-preference shown"
        return SelfPreference(ownRate: ownRate, othersRate: othersRate, flagged: flagged, finding: finding)
    }
}
