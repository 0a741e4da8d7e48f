import Foundation

/// `hybrid rollout status`: where the rollout stands, each guardrail's interval over the looks, every decision.
public enum RolloutStatusText {
    public static func render(_ state: RolloutState) -> String {
        var lines = [
            "rollout of \(state.feature): arm \(state.arm) at \(RolloutDecision.percent(state.percentage)) "
                + "(config v\(state.stageVersion) at \(state.destination)), \(state.status.rawValue)"
        ]
        if let pending = state.pending {
            lines.append("pending: \(pending.decision.action.rawValue) to \(RolloutDecision.percent(pending.decision.percentage)) as v\(pending.decision.configVersion), not yet confirmed published (the next step finishes it)")
        }
        if let last = state.lastCheck { lines.append("last look: " + last.line(feature: state.feature)) }
        lines.append("")
        lines.append("guardrails over time (arm − control, always-valid interval running over the stage's looks):")
        let looks = state.history.suffix(20)
        if looks.isEmpty { lines.append("  none judged yet (each group needs \(RolloutController.minimumJudgedInstalls) installs)") }
        for look in looks {
            let when = ISO8601DateFormatter().string(from: look.at)
            lines.append("  \(when) stage \(RolloutDecision.percent(look.percentage)) v\(look.configVersion) "
                + "(\(look.armInstalls)/\(look.controlInstalls) installs): " + look.guardrails.map(\.description).joined(separator: "; "))
        }
        lines.append("")
        lines.append("decisions:")
        for decision in state.decisions { lines.append("  " + decision.line(feature: state.feature)) }
        return lines.joined(separator: "\n")
    }
}
