extension ConfigValidator.Checker {
    /// A rollout's design: a known kind; a planned one states a positive horizon, at least one look, none past the
    /// horizon, and a spending function the report knows.
    mutating func checkDesign(_ design: RolloutDesign, _ path: ConfigPath) {
        guard RolloutDesign.kinds.contains(design.kind) else {
            error(path.key("kind"), "unknown design kind \"\(design.kind)\"" + Self.hint(design.kind, RolloutDesign.kinds))
            return
        }
        guard design.kind == "planned" else {
            if design.horizon != nil || design.looks != nil || design.lookDays != nil || design.lookInstalls != nil
                || design.primaryMetric != nil
            {
                error(path.key("kind"), "an alwaysValid design takes no horizon or looks; set \"kind\": \"planned\" to plan them")
            }
            return
        }
        if let spending = design.spending, !RolloutDesign.spendingFunctions.contains(spending) {
            error(path.key("spending"), "unknown spending function \"\(spending)\"" + Self.hint(spending, RolloutDesign.spendingFunctions))
        }
        if let metric = design.primaryMetric, !RolloutDesign.primaryMetrics.contains(metric) {
            error(path.key("primaryMetric"), "unknown metric \"\(metric)\"" + Self.hint(metric, RolloutDesign.primaryMetrics))
        }
        guard let horizon = checkHorizon(design.horizon, path.key("horizon")) else { return }
        checkLooks(design, horizon: horizon, path)
    }

    /// The horizon's amount and whether it counts days, or nil after an error.
    private mutating func checkHorizon(_ horizon: RolloutDesign.Horizon?, _ path: ConfigPath) -> (amount: Double, days: Bool)? {
        guard let horizon else {
            error(path, "a planned design states its horizon: {\"days\": 7} or {\"installs\": 200}")
            return nil
        }
        switch (horizon.days, horizon.installs) {
        case (let days?, nil):
            guard days.isFinite, days > 0 else {
                error(path.key("days"), "must be above 0, found \(days)")
                return nil
            }
            return (days, true)
        case (nil, let installs?):
            guard installs > 0 else {
                error(path.key("installs"), "must be above 0, found \(installs)")
                return nil
            }
            return (Double(installs), false)
        default:
            error(path, "give the horizon in days or in installs, exactly one of them")
            return nil
        }
    }

    /// Equally spaced `looks`, or an explicit list in the horizon's unit: increasing, above 0, none past the horizon.
    private mutating func checkLooks(_ design: RolloutDesign, horizon: (amount: Double, days: Bool), _ path: ConfigPath) {
        let listKey = horizon.days ? "lookDays" : "lookInstalls"
        if horizon.days ? design.lookInstalls != nil : design.lookDays != nil {
            let other = horizon.days ? "lookInstalls" : "lookDays"
            error(path.key(other), "the horizon is in \(horizon.days ? "days" : "installs"): list the looks as \(listKey)")
        }
        let list = horizon.days ? design.lookDays : design.lookInstalls.map { $0.map(Double.init) }
        if let looks = design.looks, looks < 1 { error(path.key("looks"), "must be at least 1, found \(looks)") }
        if let looks = design.looks, looks > RolloutDesign.maxLooks {
            error(path.key("looks"), "at most \(RolloutDesign.maxLooks) planned looks, found \(looks): read more often off the plan instead (those readings decide by the always-valid test)")
        }
        guard let list else {
            if design.looks == nil { error(path.key("looks"), "a planned design states its looks: \"looks\": 7 or \(listKey)") }
            return
        }
        if list.isEmpty { error(path.key(listKey), "list at least one look") }
        if list.count > RolloutDesign.maxLooks { error(path.key(listKey), "at most \(RolloutDesign.maxLooks) planned looks, found \(list.count)") }
        if let looks = design.looks, looks >= 1, looks != list.count {
            error(path.key("looks"), "\(looks) looks, but \(listKey) lists \(list.count)")
        }
        for (i, look) in list.enumerated() {
            let unit = horizon.days ? "day \(Self.number(look))" : "\(Self.number(look)) installs"
            if !(look.isFinite && look > 0) {
                error(path.key(listKey).index(i), "must be above 0, found \(Self.number(look))")
            } else if look > horizon.amount {
                let end = horizon.days ? "\(Self.number(horizon.amount)) days" : "\(Self.number(horizon.amount)) installs"
                error(path.key(listKey).index(i), "look \(i + 1) at \(unit) is past the horizon of \(end)")
            } else if i > 0, look <= list[i - 1] {
                error(path.key(listKey).index(i), "looks must increase: \(Self.number(look)) follows \(Self.number(list[i - 1]))")
            }
        }
    }

    private static func hint(_ value: String, _ known: [String]) -> String {
        let guess = ConfigValidator.nearest(to: value, in: known).map { "; did you mean \"\($0)\"?" } ?? ""
        return guess + " (known: \(known.joined(separator: ", ")))"
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }
}
