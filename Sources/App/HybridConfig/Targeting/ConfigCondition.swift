/// A named condition on the app's labels, evaluated on the device as Firebase Remote Config evaluates its
/// conditions: the document lists them in order, and for each feature the first condition that holds and that
/// the feature overrides picks the override ("first match wins"); with none, the feature's own values apply.
///
/// Every test must hold (a logical and). Labels are what the app gives the router (`eventLabels`: `appVersion`,
/// `osVersion`, `platform`, `locale`, `country`, `deviceClass` or any custom signal), the same ones its events carry;
/// a label the app did not set fails every test on it.
///
/// ```json
/// "conditions": [
///   {"name": "older-phones", "labels": {"deviceClass": {"oneOf": ["iphone-11", "iphone-12"]}}},
///   {"name": "app-3.2", "labels": {"appVersion": {"atLeast": "3.2"}}},
///   {"name": "ten-percent", "percentile": {"seed": "prompt-v2", "below": 10}}
/// ]
/// ```
package struct ConfigCondition: Sendable, Hashable, Codable {
    /// The labels a condition may test without the document declaring them (`labels`): what apps commonly set.
    static let builtInLabels = ["appVersion", "osVersion", "platform", "locale", "country", "deviceClass"]

    /// The condition's name, which features' `overrides` refer to.
    package var name: String
    /// Label name → test on its value.
    package var labels: [String: LabelTest]
    /// A seeded slice of installs (0 ≤ percentile < 100), bucketed as rollouts are.
    package var percentile: PercentileRange?

    /// Creates a condition.
    package init(name: String, labels: [String: LabelTest] = [:], percentile: PercentileRange? = nil) {
        self.name = name
        self.labels = labels
        self.percentile = percentile
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, labels, percentile
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        labels = try c.decodeIfPresent([String: LabelTest].self, forKey: .labels) ?? [:]
        percentile = try c.decodeIfPresent(PercentileRange.self, forKey: .percentile)
    }

    /// Whether the condition holds for an install with these labels.
    func matches(_ labels: [String: String], installId: String) -> Bool {
        matches(TargetLabels(labels), installId: installId)
    }

    /// Whether the condition holds for an install with these labels (their versions parsed once).
    func matches(_ labels: TargetLabels, installId: String) -> Bool {
        for (label, test) in self.labels {
            guard let value = labels.values[label], test.matches(value, version: labels.versions[label]) else { return false }
        }
        if let percentile, !percentile.contains(installId: installId) { return false }
        return true
    }
}

/// An install's labels with their version readings parsed once: the router keeps one for its lifetime, so a
/// request pays for no parsing (conditions are evaluated on every request).
package struct TargetLabels: Sendable, Hashable {
    /// Label → value, as the app gave them.
    let values: [String: String]
    /// Label → the value read as a version, for values that are one.
    let versions: [String: SemanticVersion]

    /// Parses the values that are versions.
    package init(_ values: [String: String]) {
        self.values = values
        versions = values.compactMapValues(SemanticVersion.init)
    }
}

/// One test on a label's value; every test set must hold. `atLeast` and `below` compare semantic versions
/// (`3.2` < `3.10` < `3.10.1`), the others compare strings exactly.
package struct LabelTest: Sendable, Hashable, Codable {
    /// The value is exactly this.
    package var equals: String?
    /// The value is one of these.
    package var oneOf: [String]?
    /// The value starts with this (`de` matches `de-AT`).
    package var prefix: String?
    /// The value is a version at or above this one.
    package var atLeast: String? { didSet { atLeastVersion = atLeast.flatMap(SemanticVersion.init) } }
    /// The value is a version below this one.
    package var below: String? { didSet { belowVersion = below.flatMap(SemanticVersion.init) } }
    /// `atLeast` and `below` parsed once (conditions are evaluated on every request).
    private var atLeastVersion: SemanticVersion?
    private var belowVersion: SemanticVersion?

    /// Creates a test; set at least one field.
    package init(equals: String? = nil, oneOf: [String]? = nil, prefix: String? = nil, atLeast: String? = nil, below: String? = nil) {
        self.equals = equals
        self.oneOf = oneOf
        self.prefix = prefix
        self.atLeast = atLeast
        self.below = below
        atLeastVersion = atLeast.flatMap(SemanticVersion.init)
        belowVersion = below.flatMap(SemanticVersion.init)
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case equals, oneOf, prefix, atLeast, below
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            equals: try c.decodeIfPresent(String.self, forKey: .equals), oneOf: try c.decodeIfPresent([String].self, forKey: .oneOf),
            prefix: try c.decodeIfPresent(String.self, forKey: .prefix), atLeast: try c.decodeIfPresent(String.self, forKey: .atLeast),
            below: try c.decodeIfPresent(String.self, forKey: .below))
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(equals, forKey: .equals)
        try c.encodeIfPresent(oneOf, forKey: .oneOf)
        try c.encodeIfPresent(prefix, forKey: .prefix)
        try c.encodeIfPresent(atLeast, forKey: .atLeast)
        try c.encodeIfPresent(below, forKey: .below)
    }

    /// Whether `value` passes every test set.
    func matches(_ value: String) -> Bool {
        matches(value, version: SemanticVersion(value))
    }

    /// Whether `value`, read as `version` when it is one, passes every test set.
    func matches(_ value: String, version: SemanticVersion?) -> Bool {
        if let equals, value != equals { return false }
        if let oneOf, !oneOf.contains(value) { return false }
        if let prefix, !value.hasPrefix(prefix) { return false }
        if atLeast != nil || below != nil {
            guard let version else { return false }
            if let atLeastVersion, version < atLeastVersion { return false }
            if let belowVersion, !(version < belowVersion) { return false }
        }
        return true
    }

    /// Whether no test is set (the validator refuses it: it would hold for any value).
    var isEmpty: Bool { equals == nil && oneOf == nil && prefix == nil && atLeast == nil && below == nil }
}

/// A slice of installs by their seeded percentile: `from` ≤ percentile < `below`.
package struct PercentileRange: Sendable, Hashable, Codable {
    /// Splits installs independently of other conditions and rollouts with another seed.
    package var seed: String
    /// Lower bound, inclusive (0–100).
    package var from: Double
    /// Upper bound, exclusive (0–100).
    package var below: Double

    /// Creates a range.
    package init(seed: String, from: Double = 0, below: Double) {
        self.seed = seed
        self.from = from
        self.below = below
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case seed, from, below
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        seed = try c.decode(String.self, forKey: .seed)
        from = try c.decodeIfPresent(Double.self, forKey: .from) ?? 0
        below = try c.decode(Double.self, forKey: .below)
    }

    /// Whether `installId`'s bucket (the rollouts' SHA-256 bucketing, feature-independent) lies in the range.
    func contains(installId: String) -> Bool {
        let bucket = RolloutBucketing.bucket(seed: seed, feature: "", installId: installId)
        return bucket >= RolloutBucketing.threshold(percentage: from) && bucket < RolloutBucketing.threshold(percentage: below)
    }
}
