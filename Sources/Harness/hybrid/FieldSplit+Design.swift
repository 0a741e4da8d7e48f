import ArgumentParser
import HybridConfig
import HybridReport

/// The design flags of the field report, and the design a report is read under: the flags when given, else the
/// config's `rollouts.FEATURE.design`, else the always-valid default (nil).
extension FieldSplit {
    /// The design kinds `--design` takes.
    static let designKinds = ["alwaysValid", "planned"]

    /// Errors name the flag: an unknown design or spending function, a planned design without exactly one horizon or
    /// without looks, a horizon or look flag without `--design planned`.
    func validateDesign() throws {
        if let design, !Self.designKinds.contains(design) {
            throw ValidationError("--design: unknown design \"\(design)\" (known: \(Self.designKinds.joined(separator: ", ")))")
        }
        if let spending, SpendingFunction(named: spending) == nil {
            let known = SpendingFunction.allCases.map(\.rawValue)
            let guess = known.first { $0.lowercased().hasPrefix(spending.lowercased().prefix(3)) }.map { "; did you mean \"\($0)\"?" } ?? ""
            throw ValidationError("--spending: unknown spending function \"\(spending)\"\(guess) (known: \(known.joined(separator: ", ")))")
        }
        guard design == "planned" else {
            let planned = [("--horizon-days", horizonDays != nil), ("--horizon-installs", horizonInstalls != nil),
                           ("--looks", looks != nil), ("--spending", spending != nil), ("--primary-metric", primaryMetric != nil)]
            if let flag = planned.first(where: \.1)?.0 { throw ValidationError("\(flag) needs --design planned") }
            return
        }
        switch (horizonDays, horizonInstalls) {
        case (nil, nil), (.some, .some):
            throw ValidationError("--design planned needs exactly one of --horizon-days and --horizon-installs")
        case (let days?, nil):
            guard days.isFinite, days > 0 else { throw ValidationError("--horizon-days must be above 0, found \(days)") }
        case (nil, let installs?):
            try OptionChecks.atLeast(1, installs, option: "--horizon-installs")
        }
        guard let looks else { throw ValidationError("--design planned needs --looks") }
        try OptionChecks.atLeast(1, looks, option: "--looks")
        guard looks <= 100 else { throw ValidationError("--looks \(looks): at most 100 planned looks (read more often off the plan instead)") }
        if let primaryMetric, !FieldDesign.metrics.contains(primaryMetric) {
            throw ValidationError(Self.unknownMetric(primaryMetric, at: "--primary-metric"))
        }
    }

    /// "--primary-metric: unknown metric "latency" (did you mean "latencyMeanMs"?; known: …)".
    static func unknownMetric(_ name: String, at place: String) -> String {
        let guess = FieldDesign.metrics.first { $0.lowercased().hasPrefix(name.lowercased().prefix(4)) }
            .map { "; did you mean \"\($0)\"?" } ?? ""
        return "\(place): unknown metric \"\(name)\"\(guess) (known: \(FieldDesign.metrics.joined(separator: ", ")))"
    }

    /// The design this report is read under: the flags' when `--design` is given (`alwaysValid`: none, overriding a
    /// planned design in the config, and refused on a run whose looks were planned), else the config's.
    func resolvedDesign(config: RolloutDesign?, feature: String) throws -> FieldDesign? {
        guard let design else { return try Self.fieldDesign(config: config, feature: feature) }
        guard design == "planned", let looks else { return nil }
        let horizon: FieldDesign.Horizon = horizonDays.map { .days($0) } ?? .installs(horizonInstalls ?? 0)
        var planned = FieldDesign(horizon: horizon, looks: looks, spending: SpendingFunction(named: spending ?? "") ?? .obrienFleming)
        planned.primaryMetric = primaryMetric
        return planned
    }

    /// The design `config` (the feature's `rollouts.FEATURE.design`, validated) states; nil for the always-valid one.
    static func fieldDesign(config: RolloutDesign?, feature: String) throws -> FieldDesign? {
        guard let planned = config?.planned else { return nil }
        guard let spending = SpendingFunction(named: planned.spending) else {
            throw CLIError("rollouts.\(feature).design.spending: unknown spending function \"\(planned.spending)\"")
        }
        if let metric = planned.primaryMetric, !FieldDesign.metrics.contains(metric) {
            throw CLIError(unknownMetric(metric, at: "rollouts.\(feature).design.primaryMetric"))
        }
        let horizon: FieldDesign.Horizon = planned.inDays ? .days(planned.horizon) : .installs(Int(planned.horizon))
        var design = FieldDesign(horizon: horizon, schedule: planned.looks, spending: spending)
        design.primaryMetric = planned.primaryMetric
        return design
    }
}
