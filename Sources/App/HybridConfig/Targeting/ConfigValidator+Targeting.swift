import HybridCore

extension ConfigValidator.Checker {
    /// Whether `name` can name a condition or an input rule: letters, digits, `-`, `_` and `.`, not empty (it is
    /// written in paths, events and reports).
    static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0) }
    }

    /// Conditions: unique names a feature can refer to, tests that can hold, versions that are versions.
    mutating func checkConditions(_ path: ConfigPath) {
        var seen: [String] = []
        for (i, condition) in document.conditions.enumerated() {
            let cpath = path.index(i)
            if !Self.isName(condition.name) {
                error(cpath.key("name"), "condition name \"\(condition.name)\" must use letters, digits, '-', '_' and '.'")
            }
            if seen.contains(condition.name) { error(cpath.key("name"), "condition \"\(condition.name)\" is defined twice") }
            seen.append(condition.name)
            if condition.labels.isEmpty && condition.percentile == nil {
                error(cpath, "set labels or percentile: a condition with neither holds for every install")
            }
            for (label, test) in condition.labels.sorted(by: { $0.key < $1.key }) {
                let lpath = cpath.key("labels").key(label)
                if !ConfigCondition.builtInLabels.contains(label) && !(document.labels ?? []).contains(label) {
                    publishingWarning(
                        lpath,
                        "label \"\(label)\" is neither built in (\(ConfigValidator.Checker.list(ConfigCondition.builtInLabels))) nor "
                            + "declared in the document's labels; a misspelt label never matches, so its override never applies")
                }
                if test.isEmpty { error(lpath, "set equals, oneOf, prefix, atLeast or below") }
                if let oneOf = test.oneOf, oneOf.isEmpty { error(lpath.key("oneOf"), "list at least one value") }
                for (key, value) in [("atLeast", test.atLeast), ("below", test.below)] {
                    guard let value else { continue }
                    if SemanticVersion(value) == nil {
                        error(lpath.key(key), "\"\(value)\" is not a version (write dotted numbers such as 3.2 or 18.0.1)")
                    }
                }
            }
            if let range = condition.percentile {
                let ppath = cpath.key("percentile")
                if !(range.from >= 0 && range.from < range.below && range.below <= 100) {
                    error(ppath, "needs 0 ≤ from < below ≤ 100, found from \(range.from), below \(range.below)")
                }
                if range.seed.isEmpty { error(ppath.key("seed"), "name a seed (installs split independently per seed)") }
            }
        }
    }

    /// A feature's overrides: each names a condition, and the feature as overridden must still be valid.
    mutating func checkOverrides(_ feature: FeatureConfig, inputs: [String], _ path: ConfigPath) {
        guard let overrides = feature.overrides else { return }
        let known = document.conditions.map(\.name)
        for (condition, override) in overrides.sorted(by: { $0.key < $1.key }) {
            let opath = path.key(condition)
            if !known.contains(condition) {
                error(opath, "condition \"\(condition)\" is not defined in conditions (defined: \(ConfigValidator.Checker.list(known)))")
            }
            if override.fieldNames.isEmpty { warning(opath, "overrides nothing") }
            let merged = override.applied(to: feature)
            if let priority = override.priority { checkPriority(priority, feature: merged, opath.key("priority"), allowEmpty: false) }
            if override.defaultVariant != nil || override.variants != nil, merged.variants[merged.defaultVariant] == nil {
                error(opath.key("defaultVariant"), "variant \"\(merged.defaultVariant)\" is not defined (defined: \(ConfigValidator.Checker.list(merged.variants.keys)))")
            }
            for (name, variant) in (override.variants ?? [:]).sorted(by: { $0.key < $1.key }) {
                let vpath = opath.key("variants").key(name)
                if let instructions = variant.instructions { checkTemplate(instructions, inputs: inputs, vpath.key("instructions")) }
                if let template = variant.template { checkTemplate(template, inputs: inputs, vpath.key("template")) }
                if variant.templateFile != nil { error(vpath.key("templateFile"), "write the template inline in an override") }
                if variant.template == nil && variant.templateFile == nil { error(vpath, "set template") }
            }
            if let deadline = override.deadlineMs, deadline <= 0 { error(opath.key("deadlineMs"), "must be more than 0 milliseconds, found \(deadline)") }
            if let budget = override.monthlyBudgetUSD, !(budget.isFinite && budget >= 0) {
                error(opath.key("monthlyBudgetUSD"), "must be 0 or more dollars, found \(budget)")
            }
            if merged.monthlyBudgetUSD != nil, override.monthlyBudgetUSD != nil || override.priority != nil {
                checkBudgetIsPriced(merged.priority, opath.key(override.monthlyBudgetUSD != nil ? "monthlyBudgetUSD" : "priority"))
            }
            if let routing = override.routing { checkRouting(routing, opath.key("routing")) }
            if let constraints = override.constraints {
                do {
                    try constraints.validateDefinition()
                } catch {
                    self.error(opath.key("constraints"), relative: error.path, error.message)
                }
            }
        }
    }
}
