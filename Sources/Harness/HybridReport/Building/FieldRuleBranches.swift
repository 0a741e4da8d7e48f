import HybridStore

extension FieldReportBuilder {
    /// One branch per input rule the events name, by name, then the feature's own route; nil when no event names a
    /// rule (the feature has none, or an app too old to send them), so reports of such runs stay as they were.
    static func ruleBranches(_ events: [FieldEventRecord], level: Double) -> [FieldRuleBranch]? {
        guard events.contains(where: { $0.inputRule != nil }) else { return nil }
        let groups = Dictionary(grouping: events, by: \.inputRule)
        // The own route (nil) sorts last: it is what the rules are read against.
        let order = groups.keys.sorted { ($0 == nil ? 1 : 0, $0 ?? "") < ($1 == nil ? 1 : 0, $1 ?? "") }
        return order.map { rule in
            let records = groups[rule] ?? []
            return FieldRuleBranch(
                rule: rule, arms: Set(records.map { $0.rolloutArm ?? "default" }).sorted(),
                figures: FieldArmFigures(name: rule ?? "own route", events: records, level: level).summary)
        }
    }
}
