import Foundation
import HybridCore
@testable import HybridStore
import HybridTestSupport

extension TemporaryDirectory {
    var databasePath: String { url.appendingPathComponent("hybrid.sqlite").path }
}

enum Fixtures {
    /// A field event with every field set; `labels` hold a quote, so their JSON escaping is exercised.
    static func fieldEvent(_ id: String, install: String = "i1", arm: String? = "b", version: Int = 3) -> FieldEventRecord {
        FieldEventRecord(
            eventID: id, occurredAt: Date(timeIntervalSince1970: 1_700_000_000.123), installID: install,
            feature: "summarize-v2", configVersion: version, configHash: "abc", rolloutArm: arm, bucket: 42,
            variant: "concise", servedBy: "cloud", servedTier: "third-party", outcome: "served", errorKind: nil,
            attemptCount: 2, fellBack: true, ttftMs: 12.5, latencyMs: 80, inputTokens: 10, outputTokens: 20,
            tokensEstimated: false, costUSD: 0.0001, checksTotal: 2, failedChecks: ["json", "maxWords"], cacheHit: false,
            labels: ["os": "iOS \"18\"", "app": "1.2"])
    }

    /// A date GRDB's millisecond text format stores exactly (whole seconds).
    static let date = Date(timeIntervalSince1970: 1_750_000_000)

    static func run(_ id: String = "run-1", startedAt: Date = date) -> RunRecord {
        RunRecord(
            id: id,
            features: ["summarize", "classify"],
            datasetPath: "datasets/summaries.jsonl",
            datasetHash: "sha256:abc",
            configVersion: 7,
            configHash: "sha256:cfg",
            startedAt: startedAt,
            status: .running,
            arguments: ["repeats": 2, "models": ["local-smollm2", "gpt-4o-mini"], "dry_run": false],
            plannedCount: 12,
            skippedInvalidLines: 3,
            seed: UInt64.max - 5
        )
    }

    /// A result with every optional field set and values that JSON round-trips exactly.
    static func fullResult(run: String = "run-1", caseID: String = "case-1", arm: String = "arm-a", repeatIndex: Int = 0) -> ResultRecord {
        ResultRecord(
            key: ResultKey(runID: run, caseID: caseID, armID: arm, repeatIndex: repeatIndex),
            feature: "summarize",
            promptVariant: "terse-v2",
            modelID: "gpt-4o-mini",
            tier: .thirdParty,
            renderedPromptHash: "sha256:prompt",
            configVersion: 7,
            configHash: "sha256:cfg",
            rawOutput: "{\"summary\": \"Caf\u{e9} \u{1F600}\", \"n\": 3}",
            parsedOutput: ["summary": "Caf\u{e9} \u{1F600}", "n": 3, "ratio": 0.25, "tags": ["a", nil, true], "nested": ["x": -1]],
            usage: TokenUsage(promptTokens: 120, completionTokens: 45, cachedTokens: 64, reasoningTokens: 12, isEstimated: true),
            timings: ResultTimings(
                ttftMs: 180.25, totalMs: 912.5, decodeTokensPerSecond: 48.75, retryBackoffMs: 1500.5, coldStart: true,
                serverPromptMs: 85.25, serverGenerationMs: 610.5),
            costUSD: 0.000_123_5,
            constraints: [
                ConstraintOutcome(name: "max_chars", passed: true, observed: 412),
                ConstraintOutcome(name: "json_schema", passed: false, observed: "missing /title"),
                ConstraintOutcome(name: "non_empty", passed: true),
            ],
            scores: [
                QualityScore(scorer: "rouge_l", value: 0.625),
                QualityScore(scorer: "judge:faithfulness", value: 0.75, detail: "mostly faithful"),
            ],
            error: ResultError(kind: "rate_limited", message: "gpt-4o-mini: rate limited (429); retry later"),
            retries: 2,
            cacheHit: true,
            completedAt: date
        )
    }

    /// A result with every optional field nil and every list empty.
    static func minimalResult(run: String = "run-1", caseID: String = "case-1", arm: String = "arm-a", repeatIndex: Int = 0) -> ResultRecord {
        ResultRecord(
            key: ResultKey(runID: run, caseID: caseID, armID: arm, repeatIndex: repeatIndex),
            feature: "summarize",
            promptVariant: "base",
            modelID: "local-smollm2",
            tier: .onDevice,
            renderedPromptHash: "h",
            rawOutput: nil,
            usage: nil,
            timings: ResultTimings(totalMs: 1),
            completedAt: date
        )
    }
}
