/// A model that answered none of its results in a run, and why: what a report says before any figure, since every
/// figure of a run that measured nothing is empty (the local server could not start, every call failed).
///
/// Cloud models that were never sent for want of a key are not listed here (they are "not measured", in the
/// feature's section); an on-device model that was never sent is, since its failure is the machine's.
public struct UnansweredModel: Sendable, Hashable {
    /// The model id.
    public var modelID: String
    /// Its results across every arm and feature of the run.
    public var results: Int
    /// The first distinct reasons, in full.
    public var reasons: [String]
}

extension RunReport {
    /// Every model that answered 0 of its results, in the order the features list them.
    public var unansweredModels: [UnansweredModel] {
        var order: [String] = []
        var byModel: [String: (results: Int, answered: Int, listed: Bool, reasons: [String])] = [:]
        for arm in features.flatMap(\.arms) {
            if byModel[arm.modelID] == nil { order.append(arm.modelID) }
            var entry = byModel[arm.modelID, default: (0, 0, false, [])]
            entry.results += arm.count
            entry.answered += arm.answered
            // Sent and failed, or an on-device model that could not even be sent.
            if arm.notMeasured == nil || arm.tier == "on-device" { entry.listed = true }
            for reason in arm.unansweredErrors ?? arm.notMeasured.map({ [$0] }) ?? [] where !entry.reasons.contains(reason) {
                if entry.reasons.count < 3 { entry.reasons.append(reason) }
            }
            byModel[arm.modelID] = entry
        }
        return order.compactMap { id in
            guard let entry = byModel[id], entry.listed, entry.answered == 0, entry.results > 0 else { return nil }
            return UnansweredModel(modelID: id, results: entry.results, reasons: entry.reasons)
        }
    }

    /// Whether any arm of `feature` answered at least one result; a gate or a decision over a feature without one
    /// has nothing to stand on.
    public func hasAnswers(feature: String) -> Bool {
        self.feature(feature)?.arms.contains { $0.answered > 0 } ?? false
    }
}
