package import HybridCore

/// A run reduced to what learning input rules needs: for every case, its measured request features and each tier's
/// answer to each of its repeats. Built only when every tier of the route answered every case, so each candidate
/// route is judged on the same cases (the paired comparison a rule's decision rests on).
public struct InputCaseTable: Sendable {
    /// One tier's answer to one request, as the route walk reads it.
    package struct Answer: Sendable {
        /// The request failed: the router moves on.
        var failed: Bool
        /// The answer passed every check (the recommender's adherence: answered and no check failed).
        var adherent: Bool
        var costUSD: Double
        var latencyMs: Double
        /// The policy's quality scorer on this answer; nil when it was not scored (or the policy sets no floor).
        var quality: Double?

        /// An answer made by hand (the calibration zoo's synthetic runs).
        package init(failed: Bool = false, adherent: Bool, costUSD: Double, latencyMs: Double, quality: Double? = nil) {
            self.failed = failed
            self.adherent = adherent && !failed
            self.costUSD = costUSD
            self.latencyMs = latencyMs
            self.quality = quality
        }
    }

    /// The stored run, named in every message.
    public let runID: String
    /// The feature the run measured.
    public let feature: String
    /// The route's models, device first (by tier, then in the route's order): tier 0 is "the device".
    public let tiers: [String]
    /// The dataset cases, sorted: the unit of every interval.
    public let caseIDs: [String]
    /// Per case, the features of the request the router would send for it.
    package let features: [InputFeatures]
    /// `answers[case][repeat][tier]`.
    let answers: [[[Answer]]]

    /// A table made in memory (the calibration zoo's synthetic runs and tests).
    package init(runID: String, feature: String, tiers: [String], caseIDs: [String], features: [InputFeatures], answers: [[[Answer]]]) {
        self.runID = runID
        self.feature = feature
        self.tiers = tiers
        self.caseIDs = caseIDs
        self.features = features
        self.answers = answers
    }

    /// Reduces `table` to `tiers` (models on arm `variant@model`), with `features` measured per case id; refuses, in
    /// plain words, a run where the tiers did not answer the same cases or a case could not be measured.
    static func build(
        _ table: RunOutcomeTable, variant: String, tiers: [String], features: [String: InputFeatures], scorer: Int? = nil
    ) throws(InputRuleRefusal) -> InputCaseTable {
        guard tiers.count >= 2 else { throw .oneTier(runID: table.runID, feature: table.feature, models: tiers) }
        var arms: [Int] = []
        for model in tiers {
            guard let arm = table.armIndex(of: "\(variant)@\(model)") else {
                throw .tierMissing(runID: table.runID, feature: table.feature, arm: "\(variant)@\(model)")
            }
            arms.append(arm)
        }
        try requireSameCases(table, arms: arms, tiers: tiers)
        var grouped: [String: [[Answer]]] = [:]
        for (index, key) in table.cases.enumerated() where arms.allSatisfy({ table.outcomes[index][$0] != nil }) {
            grouped[key.caseID, default: []].append(arms.map { Answer(table.outcomes[index][$0]!, scorer: scorer) })
        }
        let ids = grouped.keys.sorted()
        let unmeasured = ids.filter { features[$0] == nil }
        guard unmeasured.isEmpty else { throw .unmeasured(runID: table.runID, cases: unmeasured) }
        return InputCaseTable(
            runID: table.runID, feature: table.feature, tiers: tiers, caseIDs: ids, features: ids.map { features[$0]! },
            answers: ids.map { grouped[$0]! })
    }

    /// Names, per tier, the requests it has no result for while another tier has.
    private static func requireSameCases(_ table: RunOutcomeTable, arms: [Int], tiers: [String]) throws(InputRuleRefusal) {
        for (position, arm) in arms.enumerated() {
            let missing = table.cases.indices.filter { i in
                table.outcomes[i][arm] == nil && arms.contains { table.outcomes[i][$0] != nil }
            }
            if !missing.isEmpty {
                throw .casesMissing(
                    runID: table.runID, feature: table.feature, tier: tiers[position],
                    cases: missing.map { table.cases[$0].description })
            }
        }
    }

    /// Cases in the table.
    public var count: Int { caseIDs.count }
}

extension InputCaseTable.Answer {
    init(_ outcome: ArmOutcome, scorer: Int?) {
        failed = outcome.failed
        adherent = !outcome.failed && outcome.adherent != false
        costUSD = outcome.costUSD ?? 0
        latencyMs = outcome.totalMs
        quality = scorer.flatMap { $0 < outcome.scores.count ? outcome.scores[$0] : nil }
    }
}
