import HybridCore

extension ConfigValidator.Checker {
    /// The most tests one rule may combine: a rule is meant to be read and reviewed, and `recommend --by-input`
    /// learns at most two.
    static let maximumTestsPerRule = 4

    /// A feature's (or a rollout arm's) input rules: named once each, tests that can hold, orders and variants the
    /// feature has.
    mutating func checkInputRules(_ rules: [InputRule], feature: FeatureConfig, _ path: ConfigPath) {
        var seen: [String] = []
        for (i, rule) in rules.enumerated() {
            let rpath = path.index(i)
            if !Self.isName(rule.name) { error(rpath.key("name"), "rule name \"\(rule.name)\" must use letters, digits, '-', '_' and '.'") }
            if seen.contains(rule.name) { error(rpath.key("name"), "rule \"\(rule.name)\" is defined twice") }
            seen.append(rule.name)
            checkPriority(rule.priority, feature: feature, rpath.key("priority"), allowEmpty: false)
            if let variant = rule.variant, feature.variants[variant] == nil {
                error(rpath.key("variant"), "variant \"\(variant)\" is not defined (defined: \(Self.list(feature.variants.keys)))")
            }
            if feature.monthlyBudgetUSD != nil { checkBudgetIsPriced(rule.priority, rpath.key("priority")) }
            checkTests(of: rule, rpath)
        }
    }

    private mutating func checkTests(of rule: InputRule, _ path: ConfigPath) {
        let whenPath = rule.alternatives.count == 1 ? path.key("when") : path.key("whenAny")
        if rule.tests.isEmpty { error(whenPath, "set at least one test: a rule without one holds for every request") }
        if rule.tests.count > Self.maximumTestsPerRule {
            error(whenPath, "\(rule.tests.count) tests; a rule combines at most \(Self.maximumTestsPerRule) (split it into rules, first match wins)")
        }
        for (a, tests) in rule.alternatives.enumerated() {
            let apath = rule.alternatives.count == 1 ? whenPath : whenPath.index(a)
            if tests.isEmpty && rule.alternatives.count > 1 { error(apath, "set at least one test") }
            for test in tests { checkTest(test, apath.key(test.subject.description)) }
        }
    }

    private mutating func checkTest(_ test: InputTest, _ path: ConfigPath) {
        switch test.subject {
        case .label(let name):
            if !ConfigCondition.builtInLabels.contains(name) && !(document.labels ?? []).contains(name) {
                publishingWarning(path, "label \"\(name)\" is neither built in (\(Self.list(ConfigCondition.builtInLabels))) nor declared in the document's labels: declare it in labels (a guard against a misspelt label, which would never match; `config validate` and `publish` refuse it until then)")
            }
            guard let label = test.label, !label.isEmpty else { return error(path, "set equals, oneOf, prefix, atLeast or below") }
            if let oneOf = label.oneOf, oneOf.isEmpty { error(path.key("oneOf"), "list at least one value") }
            for (key, value) in [("atLeast", label.atLeast), ("below", label.below)] {
                guard let value, SemanticVersion(value) == nil else { continue }
                error(path.key(key), "\"\(value)\" is not a version (write dotted numbers such as 3.2 or 18.0.1)")
            }
        case .feature(let name) where name.isFlag:
            break
        case .feature(let name):
            guard test.atLeast != nil || test.below != nil else { return error(path, "set atLeast, below or both") }
            for (key, value) in [("atLeast", test.atLeast), ("below", test.below)] {
                guard let value else { continue }
                if !value.isFinite || value < 0 { error(path.key(key), "must be a number of 0 or more, found \(value)") }
                if [.digitShare, .nonLatinShare].contains(name), value > 1 {
                    error(path.key(key), "\(name.rawValue) is a share between 0 and 1, found \(value)")
                }
            }
            if let low = test.atLeast, let high = test.below, !(low < high) {
                error(path, "atLeast \(low) is not below \(high): no request could match")
            }
        }
    }
}
