import Foundation
import HybridRecommend
import HybridStore

/// `/rollouts`: every staged rollout in the store (`hybrid rollout`): where it stands, each guardrail's always-valid
/// interval over the looks (drawn against its tolerance), and every decision with the figures behind it.
struct RolloutsPage: Sendable {
    var databasePath: String
    var rollouts: [RolloutState]

    static func load(catalog: ViewCatalog) async throws -> RolloutsPage {
        let records = try await SQLiteFieldEventStore(database: catalog.store.database).rolloutRecords()
        var states: [RolloutState] = []
        for record in records {
            do {
                states.append(try RolloutState.decoded(record.body))
            } catch {
                throw ViewError(status: 500, message: "the rollout of \(record.feature) in \(catalog.store.database.path) cannot be read: \(error)")
            }
        }
        return RolloutsPage(databasePath: catalog.store.database.path, rollouts: states)
    }

    func render() -> String {
        var body = HTML()
        body.element("h1", text: "Rollouts")
        body.element("p", [("class", "meta")], text: "\(rollouts.count) staged rollouts in \(databasePath) (hybrid rollout)")
        if rollouts.isEmpty { body.element("p", text: "None yet: `hybrid rollout start FEATURE --to URL` starts one.") }
        for state in rollouts { body.append(section(state)) }
        return PageLayout.document(title: "Rollouts", breadcrumbs: [PageLayout.home, ("rollouts", nil)], body: body)
    }

    private func section(_ state: RolloutState) -> HTML {
        var html = HTML()
        html.element("h2", [("id", "rollout-\(state.feature)")], text: "\(state.feature): arm \(state.arm)")
        html.element("p", [("class", state.status == .rolledBack ? "fail" : "meta")],
                     text: "\(state.status.rawValue) at \(RolloutDecision.percent(state.percentage)), config v\(state.stageVersion) at \(state.destination)")
        if let pending = state.pending {
            html.element("p", [("class", "fail")], text: "pending: \(pending.decision.action.rawValue) to \(RolloutDecision.percent(pending.decision.percentage)) (v\(pending.decision.configVersion)) not yet confirmed published")
        }
        html.element("h3", text: "Guardrails over time")
        html.append(guardrails(state.history))
        html.element("h3", text: "Decisions")
        html.element("table", [("class", "rollout-decisions")]) { table in
            table.element("tr") { tr in for title in ["when", "action", "to", "config", "installs (arm / control)", "why"] { tr.element("th", text: title) } }
            for decision in state.decisions {
                table.element("tr", [("data-action", decision.action.rawValue)]) { tr in
                    tr.element("td", text: ISO8601DateFormatter().string(from: decision.at))
                    tr.element("td", text: decision.action.rawValue)
                    tr.element("td", text: RolloutDecision.percent(decision.percentage))
                    tr.element("td", text: "v\(decision.configVersion)")
                    tr.element("td", text: "\(decision.armInstalls) / \(decision.controlInstalls)")
                    tr.element("td", text: ([decision.reason] + decision.guardrails.map(\.description)).joined(separator: "; "))
                }
            }
        }
        return html
    }

    /// One row per look and guardrail: the interval as a bar on a scale shared by the metric's looks, the
    /// tolerance as a line; a breach is marked.
    private func guardrails(_ looks: [RolloutDecision]) -> HTML {
        var html = HTML()
        guard !looks.isEmpty else {
            html.element("p", text: "None judged yet (each group needs \(RolloutController.minimumJudgedInstalls) installs with events of the stage).")
            return html
        }
        let figures = looks.flatMap(\.guardrails)
        var spans: [String: (low: Double, high: Double)] = [:]
        for figure in figures {
            let span = spans[figure.metric] ?? (figure.tolerance, figure.tolerance)
            spans[figure.metric] = (min(span.low, figure.lower, 0, -figure.tolerance), max(span.high, figure.upper, 0, figure.tolerance))
        }
        html.element("table", [("class", "rollout-guardrails")]) { table in
            table.element("tr") { tr in for title in ["when", "stage", "installs", "metric", "arm − control [interval]", ""] { tr.element("th", text: title) } }
            for look in looks {
                for figure in look.guardrails {
                    let span = spans[figure.metric] ?? (-1, 1)
                    table.element("tr", [("class", figure.breached ? "fail" : nil)]) { tr in
                        tr.element("td", text: ISO8601DateFormatter().string(from: look.at))
                        tr.element("td", text: "\(RolloutDecision.percent(look.percentage)) (v\(look.configVersion))")
                        tr.element("td", text: "\(look.armInstalls) / \(look.controlInstalls)")
                        tr.element("td", text: figure.metric)
                        tr.element("td", text: String(format: "%+.4g [%.4g, %.4g]%@", figure.difference, figure.lower, figure.upper, figure.breached ? " breach" : ""))
                        tr.element("td") { $0.append(Self.bar(figure, span: span)) }
                    }
                }
            }
        }
        return html
    }

    /// The interval drawn with positioned boxes (inline styles only: the viewer allows no scripts or images).
    static func bar(_ figure: GuardrailFigure, span: (low: Double, high: Double)) -> HTML {
        let width = max(span.high - span.low, 1e-12)
        func at(_ value: Double) -> Double { min(100, max(0, (value - span.low) / width * 100)) }
        let higherIsWorse = figure.metric != "adherence"
        let tolerance = higherIsWorse ? figure.tolerance : -figure.tolerance
        var html = HTML()
        html.element("div", [("style", "position:relative;width:220px;height:12px;background:#f6f8fa;border:1px solid #d0d7de")]) { box in
            box.element("div", [("style", String(format: "position:absolute;left:%.1f%%;width:%.1f%%;top:2px;height:8px;background:%@",
                                                  at(figure.lower), max(0.5, at(figure.upper) - at(figure.lower)), figure.breached ? "#cf222e" : "#0969da"))], text: "")
            box.element("div", [("title", "tolerance"), ("style", String(format: "position:absolute;left:%.1f%%;top:0;width:1px;height:12px;background:#9a6700", at(tolerance)))], text: "")
            box.element("div", [("title", "no difference"), ("style", String(format: "position:absolute;left:%.1f%%;top:0;width:1px;height:12px;background:#57606a", at(0)))], text: "")
        }
        return html
    }
}
