package import HybridCore
import Foundation

/// A rule that sends some of a feature's requests down another priority order, chosen per request from what the
/// request holds (`InputFeatures`) and the labels the app passes with the call. A feature's `inputRules` are tried in
/// order and the first that holds wins; with none holding (or a request that cannot be measured) the feature's own
/// route applies. `hybrid recommend --by-input` learns them from a run.
///
/// ```json
/// "inputRules": [
///   {"name": "long-inputs", "when": {"inputCharacters": {"atLeast": 1500}}, "priority": ["cloud-mini"]},
///   {"name": "code-or-long-form", "whenAny": [{"hasCode": {"equals": true}}, {"label.kind": {"equals": "long-form"}}],
///    "priority": ["cloud-mini", "on-device"], "variant": "careful"}
/// ]
/// ```
///
/// `when` holds when every test in it holds; `whenAny` when any of its objects does. A number feature takes
/// `atLeast` and `below` (both may be set: a range), a flag (`hasCode`, `hasJSON`, `hasURL`) `equals` with `true` or
/// `false`, and a label (`label.NAME`) the tests conditions take (`equals`, `oneOf`, `prefix`, `atLeast`, `below`).
package struct InputRule: Sendable, Hashable, Codable {
    /// Named in `RoutedResponse.inputRule`, field events and reports.
    package var name: String
    /// Alternatives, each a list of tests that must all hold; the rule holds when one alternative does.
    var alternatives: [[InputTest]] { didSet { measures = Self.measures(alternatives) } }
    /// The priority order for the requests the rule selects.
    package var priority: [String]
    /// The variant for those requests; nil keeps the install's.
    package var variant: String?

    /// Creates a rule holding when every test holds (`when`).
    package init(name: String, when tests: [InputTest], priority: [String], variant: String? = nil) {
        self.init(name: name, whenAny: [tests], priority: priority, variant: variant)
    }

    /// Creates a rule holding when every test of one alternative holds (`whenAny`).
    init(name: String, whenAny alternatives: [[InputTest]], priority: [String], variant: String? = nil) {
        self.name = name
        self.alternatives = alternatives
        self.priority = priority
        self.variant = variant
        measures = Self.measures(alternatives)
    }

    /// Every test the rule has, in all alternatives.
    var tests: [InputTest] { alternatives.flatMap { $0 } }

    /// What the rule's tests read of the request, so the router measures only that; nil when no test reads it
    /// (only labels). Kept, not computed: rules are read on every request.
    package private(set) var measures: InputFeatures.Needs?

    private static func measures(_ alternatives: [[InputTest]]) -> InputFeatures.Needs? {
        var needs: InputFeatures.Needs?
        for test in alternatives.joined() {
            if case .feature(let name) = test.subject { needs = (needs ?? []).union(InputFeatures.Needs(name)) }
        }
        return needs
    }

    /// Whether the rule holds for a request with `features` (nil: not measured, so feature tests fail) sent with
    /// `labels`.
    package func holds(_ features: InputFeatures?, labels: [String: String]) -> Bool {
        alternatives.contains { tests in tests.allSatisfy { $0.holds(features, labels: labels) } }
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, when, whenAny, priority, variant
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        priority = try c.decode([String].self, forKey: .priority)
        variant = try c.decodeIfPresent(String.self, forKey: .variant)
        measures = nil
        switch (c.contains(.when), c.contains(.whenAny)) {
        case (true, false):
            alternatives = [try Self.tests(try c.nestedContainer(keyedBy: RuleKey.self, forKey: .when))]
        case (false, true):
            var list = try c.nestedUnkeyedContainer(forKey: .whenAny)
            var out: [[InputTest]] = []
            while !list.isAtEnd { out.append(try Self.tests(try list.nestedContainer(keyedBy: RuleKey.self))) }
            alternatives = out
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath, debugDescription: "set one of when and whenAny"))
        }
        measures = Self.measures(alternatives)
    }

    private static func tests(_ c: KeyedDecodingContainer<RuleKey>) throws -> [InputTest] {
        try c.allKeys.sorted { $0.stringValue < $1.stringValue }.map { key in
            try InputTest(subject: try InputTest.Subject(key.stringValue, at: c.codingPath + [key]), from: c.superDecoder(forKey: key))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        if alternatives.count == 1 {
            var when = c.nestedContainer(keyedBy: RuleKey.self, forKey: .when)
            for test in alternatives[0] { try test.encode(into: &when) }
        } else {
            var list = c.nestedUnkeyedContainer(forKey: .whenAny)
            for tests in alternatives {
                var when = list.nestedContainer(keyedBy: RuleKey.self)
                for test in tests { try test.encode(into: &when) }
            }
        }
        try c.encode(priority, forKey: .priority)
        try c.encodeIfPresent(variant, forKey: .variant)
    }
}

/// One test of an input rule: a feature of the request or a label of the call, and what its value must be.
package struct InputTest: Sendable, Hashable {
    /// What the test reads.
    enum Subject: Sendable, Hashable, CustomStringConvertible {
        /// A measured feature of the request.
        case feature(InputFeatures.Name)
        /// A label passed with the call (or, when the call has none by that name, the router's).
        case label(String)

        init(_ key: String, at path: [any CodingKey]) throws {
            if key.hasPrefix("label."), key.count > "label.".count {
                self = .label(String(key.dropFirst("label.".count)))
            } else if let name = InputFeatures.Name(rawValue: key) {
                self = .feature(name)
            } else {
                let known = InputFeatures.Name.allCases.map(\.rawValue)
                let hint = ConfigValidator.suggestion(for: key, in: known).map { " (did you mean \"\($0)\"?)" } ?? " (a label the app passes is written \"label.\(key)\")"
                throw DecodingError.dataCorrupted(.init(
                    codingPath: path,
                    debugDescription: "unknown input feature \"\(key)\"\(hint): use \(known.joined(separator: ", ")) or label.NAME"))
            }
        }

        /// As written in the config.
        var description: String {
            switch self {
            case .feature(let name): name.rawValue
            case .label(let name): "label.\(name)"
            }
        }
    }

    /// What the test reads.
    var subject: Subject
    /// A number feature is at least this.
    var atLeast: Double?
    /// A number feature is below this.
    var below: Double?
    /// A flag feature is this.
    var equals: Bool?
    /// A label's test.
    var label: LabelTest?

    /// The feature the test reads; nil for a label's test.
    package var feature: InputFeatures.Name? { if case .feature(let name) = subject { name } else { nil } }

    /// A test on a number feature: `atLeast ≤ value < below`, either bound optional.
    package init(_ feature: InputFeatures.Name, atLeast: Double? = nil, below: Double? = nil) {
        subject = .feature(feature)
        self.atLeast = atLeast
        self.below = below
    }

    /// A test on a flag feature.
    package init(_ feature: InputFeatures.Name, equals: Bool) {
        subject = .feature(feature)
        self.equals = equals
    }

    /// A test on a label passed with the call.
    package init(label name: String, _ test: LabelTest) {
        subject = .label(name)
        label = test
    }

    private enum Operator: String, CodingKey, CaseIterable {
        case atLeast, below, equals, oneOf, prefix
    }

    /// Reads the operators the subject takes; any other is refused at its path.
    init(subject: Subject, from decoder: any Decoder) throws {
        self.subject = subject
        if case .label = subject {
            label = try LabelTest(from: decoder)
            return
        }
        let c = try decoder.container(keyedBy: RuleKey.self)
        let isFlag = if case .feature(let name) = subject { name.isFlag } else { false }
        let allowed = isFlag ? ["equals"] : ["atLeast", "below"]
        for key in c.allKeys where !allowed.contains(key.stringValue) {
            throw DecodingError.dataCorrupted(.init(
                codingPath: c.codingPath + [key],
                debugDescription: "\(subject) does not take \"\(key.stringValue)\": use \(allowed.joined(separator: " or "))"))
        }
        if isFlag {
            equals = try c.decode(Bool.self, forKey: RuleKey("equals"))
        } else {
            atLeast = try c.decodeIfPresent(Double.self, forKey: RuleKey("atLeast"))
            below = try c.decodeIfPresent(Double.self, forKey: RuleKey("below"))
        }
    }

    fileprivate func encode(into c: inout KeyedEncodingContainer<RuleKey>) throws {
        let key = RuleKey(subject.description)
        if let label {
            try c.encode(label, forKey: key)
            return
        }
        var ops = c.nestedContainer(keyedBy: RuleKey.self, forKey: key)
        try ops.encodeIfPresent(atLeast, forKey: RuleKey("atLeast"))
        try ops.encodeIfPresent(below, forKey: RuleKey("below"))
        try ops.encodeIfPresent(equals, forKey: RuleKey("equals"))
    }

    /// Whether the test holds; a feature test fails on a request that was not measured, a label test on a label
    /// neither the call nor the router has.
    func holds(_ features: InputFeatures?, labels: [String: String]) -> Bool {
        switch subject {
        case .feature(let name):
            guard let features else { return false }
            if let equals { return (features.value(name) != 0) == equals }
            let value = features.value(name)
            if let atLeast, !(value >= atLeast) { return false }
            if let below, !(value < below) { return false }
            return true
        case .label(let name):
            guard let value = labels[name], let label else { return false }
            return label.matches(value)
        }
    }

    /// In plain words: "inputCharacters ≥ 1500", "hasCode", "label.kind = long-form".
    package var plainWords: String {
        if let label {
            let parts = [label.equals.map { "= \($0)" }, label.oneOf.map { "in \($0.joined(separator: ", "))" },
                         label.prefix.map { "starts with \($0)" }, label.atLeast.map { "≥ \($0)" }, label.below.map { "< \($0)" }]
            return "\(subject) " + parts.compactMap { $0 }.joined(separator: " and ")
        }
        if let equals { return equals ? "\(subject)" : "not \(subject)" }
        switch (atLeast, below) {
        case (let low?, let high?): return "\(Self.number(low)) ≤ \(subject) < \(Self.number(high))"
        case (let low?, nil): return "\(subject) ≥ \(Self.number(low))"
        case (nil, let high?): return "\(subject) < \(Self.number(high))"
        case (nil, nil): return "\(subject) (no bound)"
        }
    }

    private static func number(_ value: Double) -> String {
        // Four significant digits: a learned threshold is a quantile of the run's values (0.005204439913920037),
        // and people read the rule; the config keeps the exact value.
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%.4g", value)
    }
}

extension InputRule {
    /// In plain words: "inputCharacters ≥ 1500 → cloud-mini, on-device".
    package var plainWords: String {
        let when = alternatives.map { $0.map(\.plainWords).joined(separator: " and ") }.joined(separator: ", or ")
        return "\(when) → \(priority.joined(separator: ", "))" + (variant.map { " (variant \($0))" } ?? "")
    }
}

/// A coding key for any string: a rule's tests are keyed by feature or label name.
private struct RuleKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
