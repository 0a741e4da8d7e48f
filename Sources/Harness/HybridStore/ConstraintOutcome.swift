public import HybridCore

/// The outcome of one hard constraint on one result (valid JSON, schema, length limit, required field).
public struct ConstraintOutcome: Sendable, Hashable, Codable {
    /// The constraint's name as the feature defines it, such as `max_chars` or `json_schema`.
    public var name: String
    /// True when the output met the constraint.
    public var passed: Bool
    /// What was measured (a length, the failing path, a message); nil when the check has nothing to show.
    public var observed: JSONValue?
    /// What a person needs to see why it failed (`3 sentences, limit 2`); nil when there is nothing to add.
    public var message: String?

    /// Creates an outcome.
    public init(name: String, passed: Bool, observed: JSONValue? = nil, message: String? = nil) {
        self.name = name
        self.passed = passed
        self.observed = observed
        self.message = message
    }
}

extension ConstraintOutcome {
    /// `outcomes` with at most one outcome per name, in first-seen order, so every constraint row of a report counts
    /// one trial per output. Databases written before `mustContain`/`mustNotContain` became one result per key hold
    /// one outcome per pattern under the same name; those merge here: passed when every one passed, observed the
    /// sum of integer observations (else the first failure's), and the failures' messages joined.
    public static func onePerName(_ outcomes: [ConstraintOutcome]) -> [ConstraintOutcome] {
        guard hasRepeatedName(outcomes) else { return outcomes }
        var merged: [ConstraintOutcome] = []
        var groups: [String: [ConstraintOutcome]] = [:]
        for outcome in outcomes {
            if groups[outcome.name] == nil { merged.append(outcome) }
            groups[outcome.name, default: []].append(outcome)
        }
        return merged.map { first in merge(groups[first.name] ?? [first]) }
    }

    /// Arrays are a handful of elements long, so pairwise comparison beats building a set for every stored row.
    private static func hasRepeatedName(_ outcomes: [ConstraintOutcome]) -> Bool {
        for i in outcomes.indices.dropFirst() where outcomes[..<i].contains(where: { $0.name == outcomes[i].name }) {
            return true
        }
        return false
    }

    private static func merge(_ group: [ConstraintOutcome]) -> ConstraintOutcome {
        guard group.count > 1 else { return group[0] }
        let failures = group.filter { !$0.passed }
        let integers = group.compactMap { outcome -> Int? in
            if case .int(let value)? = outcome.observed { return value }
            return nil
        }
        let observed: JSONValue? = integers.count == group.count
            ? .int(integers.reduce(0, +)) : (failures.first ?? group[0]).observed
        let messages = (failures.isEmpty ? group : failures).compactMap(\.message)
        return ConstraintOutcome(
            name: group[0].name, passed: failures.isEmpty, observed: observed,
            message: messages.isEmpty ? nil : messages.joined(separator: "; "))
    }
}
