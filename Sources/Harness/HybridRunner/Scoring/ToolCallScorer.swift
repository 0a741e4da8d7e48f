public import HybridCore

/// Scores a response's tool calls against a dataset case's ``ExpectedToolCall``s.
///
/// Results, stored beside the feature's other checks so reports give them Wilson intervals and paired tests:
/// - `tool_call_match`: the calls pair one to one with the expected calls, in any order (same tool name,
///   arguments meeting the ``ArgumentMatcher``), with no call left over. No expected call means the model must
///   answer without calling a tool.
/// - `tool_call_sequence` (cases expecting two or more calls): the same, in the expected order.
/// - `tool_arguments` (when the model called a tool): every call names an offered tool and its arguments satisfy
///   the tool's schema (``ToolCallCheck``, the output check the router runs).
///
/// The quality score `tool_call_match` gives partial credit: matched calls over the larger of expected and made.
public struct ToolCallScorer: Sendable {
    /// Name of the unordered match check and of the partial-credit score.
    public static let matchName = "tool_call_match"
    /// Name of the ordered check.
    public static let sequenceName = "tool_call_sequence"

    /// The scorer; it has no options.
    public init() {}

    /// The checks and the partial-credit score for `calls` made with `tools` offered.
    public func evaluate(_ calls: [ToolCall], expected: [ExpectedToolCall], tools: [ToolDefinition]) -> ToolCallScore {
        let pairing = Self.maximumPairing(calls, expected)
        let matched = pairing.compactMap { $0 }.count
        var results = [matchResult(calls, expected: expected, pairing: pairing, matched: matched)]
        if expected.count >= 2 { results.append(sequenceResult(calls, expected: expected)) }
        if !calls.isEmpty { results.append(ToolCallCheck(tools: tools).check(calls).result) }
        let denominator = max(calls.count, expected.count)
        return ToolCallScore(results: results, partialCredit: denominator == 0 ? 1 : Double(matched) / Double(denominator))
    }

    /// Whether `call` meets `expected`: nil when it does, else why not.
    static func mismatch(_ call: ToolCall, _ expected: ExpectedToolCall) -> String? {
        guard call.name == expected.name else { return "called \(call.name), expected \(expected.name)" }
        return expected.arguments.mismatch(call.arguments).map { "\(call.name): \($0)" }
    }

    /// For each expected call, the index of the call paired with it (a maximum matching, by augmenting paths:
    /// greedy pairing could take a call a later expectation needed).
    static func maximumPairing(_ calls: [ToolCall], _ expected: [ExpectedToolCall]) -> [Int?] {
        let fits = expected.map { want in calls.indices.filter { mismatch(calls[$0], want) == nil } }
        var owner = [Int?](repeating: nil, count: calls.count)
        func augment(_ e: Int, _ visited: inout Set<Int>) -> Bool {
            for c in fits[e] where visited.insert(c).inserted {
                if owner[c] == nil || augment(owner[c]!, &visited) {
                    owner[c] = e
                    return true
                }
            }
            return false
        }
        for e in expected.indices {
            var visited = Set<Int>()
            _ = augment(e, &visited)
        }
        var pairing = [Int?](repeating: nil, count: expected.count)
        for (c, e) in owner.enumerated() { if let e { pairing[e] = c } }
        return pairing
    }

    private func matchResult(_ calls: [ToolCall], expected: [ExpectedToolCall], pairing: [Int?], matched: Int) -> ConstraintResult {
        let passed = matched == expected.count && calls.count == expected.count
        var problems: [String] = []
        let used = Set(pairing.compactMap { $0 })
        for (e, want) in expected.enumerated() where pairing[e] == nil {
            let sameName = calls.indices.first { !used.contains($0) && calls[$0].name == want.name }
            problems.append(sameName.flatMap { Self.mismatch(calls[$0], want) } ?? "no call to \(want.name)")
        }
        for c in calls.indices where !used.contains(c) && !problems.contains(where: { $0.hasPrefix(calls[c].name + ":") }) {
            problems.append("unexpected call to \(calls[c].name)")
        }
        let message: String =
            passed
            ? (expected.isEmpty ? "no tool called, as expected" : "\(matched) of \(expected.count) expected calls made")
            : problems.prefix(3).joined(separator: "; ")
        return ConstraintResult(
            name: Self.matchName, passed: passed, observed: .int(matched), limit: .int(expected.count), message: message)
    }

    private func sequenceResult(_ calls: [ToolCall], expected: [ExpectedToolCall]) -> ConstraintResult {
        var problem: String?
        if calls.count != expected.count {
            problem = "\(calls.count) calls (\(calls.map(\.name).joined(separator: ", "))), expected \(expected.count) in order"
        } else {
            for (position, (call, want)) in zip(calls, expected).enumerated() {
                if let why = Self.mismatch(call, want) {
                    problem = "call \(position + 1): \(why)"
                    break
                }
            }
        }
        return ConstraintResult(
            name: Self.sequenceName, passed: problem == nil, observed: .array(calls.map { .string($0.name) }),
            limit: .array(expected.map { .string($0.name) }), message: problem ?? "calls made in the expected order")
    }
}

/// What ``ToolCallScorer`` made of one response.
public struct ToolCallScore: Sendable, Hashable {
    /// `tool_call_match`, then `tool_call_sequence` and `tool_arguments` where they apply.
    package var results: [ConstraintResult]
    /// Matched calls over the larger of expected and made calls (1 when neither).
    public var partialCredit: Double
}
