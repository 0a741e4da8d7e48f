import ArgumentParser
import HybridConfig
import HybridReport

/// The design flags of the field report, and the design a report is read under: the flags when given, else the
/// config's `rollouts.FEATURE.design`, else the always-valid default (nil).
extension FieldSplit {
    /// Errors name the flag: an unknown design or spending function, a planned design without exactly one horizon or
    /// without looks, a horizon or look flag without `--design planned`.
    func validateDesign() throws {
        if let design, !RolloutDesign.kinds.contains(design) {
            throw ValidationError(OptionChecks.unknownName(design, known: RolloutDesign.kinds, what: "design", at: "--design"))
        }
        if let spending, SpendingFunction(named: spending) == nil {
            throw ValidationError(Self.unknownSpending(spending, at: "--spending"))
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
        try Self.checkLooks(looks)
        if let primaryMetric, !FieldDesign.metrics.contains(primaryMetric) {
            throw ValidationError(OptionChecks.unknownName(primaryMetric, known: FieldDesign.metrics, what: "metric", at: "--primary-metric"))
        }
    }

    /// `--looks` of a planned design (the field report's or `hybrid plan`'s): at most the config's limit.
    static func checkLooks(_ looks: Int) throws {
        guard looks <= RolloutDesign.maxLooks else {
            throw ValidationError("--looks \(looks): at most \(RolloutDesign.maxLooks) planned looks (read more often off the plan instead)")
        }
    }

    /// "--spending: unknown spending function "pocok"; did you mean "pocock"? (known: …)".
    static func unknownSpending(_ name: String, at place: String) -> String {
        OptionChecks.unknownName(name, known: SpendingFunction.allCases.map(\.rawValue), what: "spending function", at: place)
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
            throw CLIError(unknownSpending(planned.spending, at: "rollouts.\(feature).design.spending"))
        }
        if let metric = planned.primaryMetric, !FieldDesign.metrics.contains(metric) {
            throw CLIError(OptionChecks.unknownName(metric, known: FieldDesign.metrics, what: "metric", at: "rollouts.\(feature).design.primaryMetric"))
        }
        let horizon: FieldDesign.Horizon = planned.inDays ? .days(planned.horizon) : .installs(Int(planned.horizon))
        var design = FieldDesign(horizon: horizon, schedule: planned.looks, spending: spending)
        design.primaryMetric = planned.primaryMetric
        return design
    }
}
