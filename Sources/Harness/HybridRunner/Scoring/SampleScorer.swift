public import HybridCore

/// Every metric of one output: hard checks (JSON parses, schema), soft constraints, and quality scores.
public struct SampleMetrics: Sendable, Hashable, Codable {
    /// One result per check, hard ones first (`json_parses`, `schema_valid`), then soft constraints.
    package var constraints: [ConstraintResult]
    /// Quality scores in 0...1 by scorer name; scorers with no applicable reference are absent.
    public var quality: [String: Double]
    /// The output parsed as JSON, when a schema applied and it parsed.
    public var parsed: JSONValue?

    /// Creates metrics; `SampleScorer.score` builds these.
    package init(constraints: [ConstraintResult], quality: [String: Double], parsed: JSONValue?) {
        self.constraints = constraints
        self.quality = quality
        self.parsed = parsed
    }

    /// True when every constraint passed (vacuously true with none).
    public var adherent: Bool { constraints.allSatisfy(\.passed) }
}

/// Scores outputs of one feature: its schema, soft constraints and quality scorers, fixed once per run.
public struct SampleScorer: Sendable {
    /// Checks the output is JSON matching the feature's schema; nil when the feature has none.
    package var structuredCheck: StructuredOutputCheck?
    /// Soft constraints on the text; nil when the feature has none.
    public var constraints: OutputConstraints?
    /// Quality scorers run on every output; each scores only references it understands.
    public var scorers: [any QualityScorer]

    /// - Parameters:
    ///   - schema: the feature's output schema; when set, outputs must be JSON conforming to it.
    ///   - constraints: soft constraints on the text (sentence, word, character limits, patterns).
    ///   - scorers: quality scorers; each scores only cases whose reference it understands.
    public init(schema: JSONSchema?, constraints: OutputConstraints?, scorers: [any QualityScorer] = StandardScorers.all) {
        self.structuredCheck = schema.map { StructuredOutputCheck(schema: $0) }
        self.constraints = constraints.flatMap { $0.isEmpty ? nil : $0 }
        self.scorers = scorers
    }

    /// All metrics for `output` against the case's `reference`.
    public func score(output: String, reference: Reference?) -> SampleMetrics {
        // The same checks the router runs on live responses, so stored adherence is what the router would see.
        let checks = OutputChecks(schema: structuredCheck?.schema, constraints: constraints).evaluate(output)
        let quality = reference.map { scorers.scores(output: output, reference: $0) } ?? [:]
        return SampleMetrics(constraints: checks.results + scoreChecks(quality), quality: quality, parsed: checks.parsed)
    }

    /// One check per scorer that decides pass/fail and scored this output: `label_match` passes at 1, a
    /// `NAME>=X` scorer at X.
    func scoreChecks(_ quality: [String: Double]) -> [ConstraintResult] {
        scorers.compactMap { scorer in
            guard let threshold = scorer.passThreshold, let value = quality[scorer.name] else { return nil }
            let passed = value >= threshold
            let shown = { (number: Double) in number == number.rounded() ? String(Int(number)) : String(format: "%.3g", number) }
            return ConstraintResult(
                name: scorer.name, passed: passed, observed: .double(value), limit: .double(threshold),
                message: "\(scorer.name) \(shown(value)), \(passed ? "at least" : "below") the \(shown(threshold)) it passes at")
        }
    }

    /// All metrics for a response that may have called tools. A response that called tools is not the final
    /// answer, so, as in the router (`OutputChecks.evaluate(_:)` on a response), the text's checks and scores wait
    /// and only the calls are checked: for a case expecting calls, ``ToolCallScorer``'s checks and its
    /// `tool_call_match` partial-credit score; otherwise the argument validity of the calls made.
    public func score(output: String, toolCalls: [ToolCall], reference: Reference?, conversation: ConversationCase?) -> SampleMetrics {
        var metrics =
            toolCalls.isEmpty
            ? score(output: output, reference: reference)
            : SampleMetrics(constraints: [], quality: [:], parsed: TranscriptText.parsedOutput(toolCalls))
        let tools = conversation?.tools ?? []
        if let expected = conversation?.expectedToolCalls {
            let scored = ToolCallScorer().evaluate(toolCalls, expected: expected, tools: tools)
            metrics.constraints += scored.results
            metrics.quality[ToolCallScorer.matchName] = scored.partialCredit
        } else if !toolCalls.isEmpty {
            metrics.constraints.append(ToolCallCheck(tools: tools).check(toolCalls).result)
        }
        return metrics
    }
}
