import Foundation
@testable import HybridConfig
import HybridConfigTools
import HybridCore
import Testing

@Suite("Input rules in the config: read, checked with JSON paths, written back")
struct InputRuleConfigTests {
    static func config(rules: JSONValue, edit: (inout JSONValue) -> Void = { _ in }) -> Data {
        Fixtures.config { tree in
            tree.set(["features", "summarize", "inputRules"], rules)
            edit(&tree)
        }
    }

    @Test("a valid list loads, evaluates in order and writes back the same JSON")
    func roundTrip() throws {
        let data = Self.config(rules: [
            ["name": "long", "when": ["inputCharacters": ["atLeast": 1500]], "priority": ["gemini-flash", "local-smollm2"]],
            ["name": "code-or-form", "whenAny": [["hasCode": ["equals": true]], ["label.platform": ["equals": "ios"]]],
             "priority": ["openai-gpt-4o-mini"], "variant": "bullet"],
        ])
        let document = try ConfigValidator.load(data).document
        let rules = try #require(document.features["summarize"]?.inputRules)
        #expect(rules.map(\.name) == ["long", "code-or-form"])
        #expect(rules[0].plainWords == "inputCharacters ≥ 1500 → gemini-flash, local-smollm2")
        #expect(rules[1].plainWords == "hasCode, or label.platform = ios → openai-gpt-4o-mini (variant bullet)")
        #expect(rules[1].holds(nil, labels: ["platform": "ios"]) && !rules[1].holds(nil, labels: [:]))
        let written = try JSONEncoder().encode(rules)
        #expect(try JSONDecoder().decode([InputRule].self, from: written) == rules)
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.contains(#""when":{"inputCharacters":{"atLeast":1500}}"#) && text.contains(#""whenAny":["#), "\(text)")
    }

    @Test("an unknown feature, an operator a feature does not take, a wrong type, a missing order: errors with their paths")
    func badRules() {
        let data = Self.config(rules: [
            ["name": "a", "when": ["inputCharacter": ["atLeast": 10]], "priority": ["gemini-flash"]],
            ["name": "b", "when": ["hasCode": ["atLeast": 1]], "priority": ["gemini-flash"]],
            ["name": "c", "when": ["inputTokens": ["atLeast": "many"]], "priority": ["gemini-flash"]],
            ["name": "d", "when": ["inputTokens": ["atLeast": 10]]],
        ])
        let issues = Fixtures.errors(data).map { "\($0.path): \($0.message)" }
        #expect(issues.contains { $0.hasPrefix("features.summarize.inputRules[0].when.inputCharacter: unknown input feature \"inputCharacter\" (did you mean \"inputCharacters\"?)") }, "\(issues)")
        #expect(issues.contains { $0.hasPrefix("features.summarize.inputRules[1].when.hasCode.atLeast: hasCode does not take \"atLeast\": use equals") }, "\(issues)")
        #expect(issues.contains { $0.hasPrefix("features.summarize.inputRules[2].when.inputTokens.atLeast: expected a number") }, "\(issues)")
        #expect(issues.contains { $0.hasPrefix("features.summarize.inputRules[3].priority: missing required key") }, "\(issues)")
    }

    @Test("checks after reading: models, privacy, variants, names, empty or impossible tests, shares, too many tests")
    func checkedRules() {
        let data = Self.config(rules: [
            ["name": "x", "when": ["inputCharacters": ["atLeast": 10]], "priority": ["gpt-9"]],
            ["name": "x", "when": ["digitShare": ["atLeast": 5]], "priority": []],
            ["name": "y z", "when": ["inputLines": ["atLeast": 9, "below": 3]], "priority": ["gemini-flash"], "variant": "formal"],
            ["name": "w", "when": [:], "priority": ["gemini-flash"]],
            ["name": "v", "when": ["turns": [:], "inputLines": ["atLeast": 1], "inputTokens": ["atLeast": 1], "hasURL": ["equals": true],
                                   "hasJSON": ["equals": false]], "priority": ["gemini-flash"]],
        ])
        let issues = Fixtures.errors(data).map { "\($0.path): \($0.message)" }
        let expected = [
            "features.summarize.inputRules[0].priority[0]: model \"gpt-9\" is not defined",
            "features.summarize.inputRules[1].name: rule \"x\" is defined twice",
            "features.summarize.inputRules[1].priority: list at least one model id",
            "features.summarize.inputRules[1].when.digitShare.atLeast: digitShare is a share between 0 and 1",
            "features.summarize.inputRules[2].name: rule name \"y z\" must use letters",
            "features.summarize.inputRules[2].when.inputLines: atLeast 9.0 is not below 3.0",
            "features.summarize.inputRules[2].variant: variant \"formal\" is not defined",
            "features.summarize.inputRules[3].when: set at least one test",
            "features.summarize.inputRules[4].when: 5 tests; a rule combines at most 4",
            "features.summarize.inputRules[4].when.turns: set atLeast, below or both",
        ]
        for prefix in expected { #expect(issues.contains { $0.hasPrefix(prefix) }, "\(prefix) not in \(issues)") }
    }

    @Test("a sensitive feature's rule may not send requests to the cloud; an undeclared label warns and blocks publishing")
    func privacyAndLabels() throws {
        let sensitive = Self.config(rules: [["name": "r", "when": ["inputTokens": ["atLeast": 1]], "priority": ["gemini-flash"]]]) { tree in
            tree.set(["features", "summarize", "privacy"], "sensitive")
            tree.set(["features", "summarize", "priority"], ["local-smollm2"])
        }
        #expect(Fixtures.errors(sensitive).contains { $0.path == "features.summarize.inputRules[0].priority[0]" && $0.message.contains("privacy class sensitive") })
        let labelled = Self.config(rules: [["name": "r", "when": ["label.kind": ["equals": "long-form"]], "priority": ["gemini-flash"]]])
        let report = try ConfigValidator.load(labelled)
        let warning = try #require(report.warnings.first { $0.path == #"features.summarize.inputRules[0].when["label.kind"]"# })
        #expect(warning.severity == .warning && warning.blocksPublishing)
        let declared = Self.config(rules: [["name": "r", "when": ["label.kind": ["equals": "long-form"]], "priority": ["gemini-flash"]]]) { tree in
            tree.set(["labels"], ["kind"])
        }
        #expect(try ConfigValidator.load(declared).warnings.isEmpty)
    }

    @Test("a label's version test must be a version; a shortened or label-like name gets a hint")
    func labelVersionsAndHints() {
        let version = Self.config(rules: [["name": "v", "when": ["label.appVersion": ["atLeast": "three"]], "priority": ["gemini-flash"]]])
        let versionIssues = Fixtures.errors(version).map { "\($0.path): \($0.message)" }
        #expect(versionIssues.contains { $0.hasPrefix(#"features.summarize.inputRules[0].when["label.appVersion"].atLeast: "three" is not a version"#) }, "\(versionIssues)")
        let data = Self.config(rules: [
            ["name": "s", "when": ["inputChars": ["atLeast": 10]], "priority": ["gemini-flash"]],
            ["name": "k", "when": ["kind": ["equals": true]], "priority": ["gemini-flash"]],
        ])
        let issues = Fixtures.errors(data).map { "\($0.path): \($0.message)" }
        #expect(issues.contains { $0.contains(#"unknown input feature "inputChars" (did you mean "inputCharacters"?)"#) }, "\(issues)")
        #expect(issues.contains { $0.contains(#"unknown input feature "kind" (a label the app passes is written "label.kind")"#) }, "\(issues)")
    }

    @Test("an arm whose input rules are the feature's (none, written []) changes nothing and is refused")
    func armChangingNothing() {
        let data = Fixtures.config { tree in
            tree.set(["rollouts", "summarize"], ["seed": "s", "arms": [["name": "same", "percentage": 10, "inputRules": []]]])
        }
        #expect(Fixtures.errors(data).contains { $0.path == "rollouts.summarize.arms[0]" && $0.message.contains("changes nothing") })
    }

    @Test("a rollout arm may carry only input rules, checked like the feature's")
    func rolloutArm() {
        let data = Fixtures.config { tree in
            tree.set(["rollouts", "summarize"], [
                "seed": "rules",
                "arms": [["name": "with-rule", "percentage": 10,
                          "inputRules": [["name": "r", "when": ["inputTokens": ["atLeast": 400]], "priority": ["gemini-fast"]]]]],
            ])
        }
        let issues = Fixtures.errors(data).map { "\($0.path): \($0.message)" }
        #expect(issues.count == 1, "the arm sets nothing but rules, which is allowed: \(issues)")
        #expect(issues.first?.hasPrefix("rollouts.summarize.arms[0].inputRules[0].priority[0]: model \"gemini-fast\" is not defined") == true)
    }
}

@Suite("Input rules in config diff")
struct InputRuleDiffTests {
    @Test("adding a rule is one change naming it in plain words")
    func diffNamesTheRule() throws {
        let old = try ConfigValidator.load(Fixtures.config()).document
        var new = old
        new.features["summarize"]?.inputRules = [
            InputRule(name: "long", when: [InputTest(.inputCharacters, atLeast: 1500)], priority: ["gemini-flash"]),
        ]
        let changes = ConfigDiff.changes(from: old, to: new)
        #expect(changes.map(\.path) == ["features.summarize.inputRules"])
        #expect(changes.first?.summary.contains("long: inputCharacters ≥ 1500 → gemini-flash") == true, "\(changes)")
    }
}
