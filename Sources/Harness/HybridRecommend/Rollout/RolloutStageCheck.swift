import HybridConfig

/// The check a stage's config passes before it is published: it validates as apps load it, and the assignment the
/// router makes (`HybridConfigDocument.assignment`, what `Router` resolves every request with) puts the stage's
/// share of installs in the arm with the arm's variant, order and input rules. A plan that would publish 5 % and serve 50 %
/// (a second arm before it, a changed seed) is refused before any install sees it.
enum RolloutStageCheck {
    /// Installs sampled: their share in the arm is within 3 standard errors of the stage.
    static let sample = 20_000

    static func problems(_ document: HybridConfigDocument, feature: String, arm: String, percentage: Double) -> [String] {
        guard let rollout = document.rollouts[feature], let planned = rollout.arms.first(where: { $0.name == arm }) else {
            return ["rollouts.\(feature) has no arm \(arm)"]
        }
        var inArm = 0
        var wrong: [String] = []
        for index in 0..<sample {
            guard let assignment = document.assignment(feature: feature, installId: "rollout-check-\(index)") else {
                return ["the router does not resolve feature \(feature)"]
            }
            guard assignment.arm == arm else { continue }
            inArm += 1
            if let variant = planned.variant, assignment.variant != variant, wrong.isEmpty {
                wrong.append("an install in arm \(arm) is served variant \(assignment.variant), not \(variant)")
            }
            if let priority = planned.priority, assignment.priority != priority, wrong.isEmpty {
                wrong.append("an install in arm \(arm) is served order \(assignment.priority), not \(priority)")
            }
            if let rules = planned.inputRules, assignment.inputRules != rules, wrong.isEmpty {
                wrong.append("an install in arm \(arm) is served input rules \(assignment.inputRules.map(\.name)), not \(rules.map(\.name))")
            }
        }
        let share = Double(inArm) / Double(sample)
        let expected = percentage / 100
        let tolerance = 3 * (expected * (1 - expected) / Double(sample)).squareRoot() + 1e-9
        if abs(share - expected) > tolerance {
            wrong.append(String(format: "the router puts %.2f %% of installs in arm %@, the stage is %.2f %%", share * 100, arm, percentage))
        }
        return wrong
    }
}
