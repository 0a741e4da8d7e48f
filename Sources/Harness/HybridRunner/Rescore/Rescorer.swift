import Foundation
public import HybridCore
public import HybridStore

/// Re-scores a stored run: its outputs go through a new ``SampleScorer`` (and, optionally, a judge) into a new
/// run, so a stricter constraint, another schema or other scorers can be tried on what models already answered.
///
/// No model is called except the judge. Everything measured about the request (usage, timings, cost, retries,
/// cache hits, errors) is copied; checks, quality scores and the parsed output are recomputed. Errored results
/// stay errors (there is no output to score). Without a judge, stored `judge` scores (and pairwise verdicts) are kept, since they cannot
/// be recomputed without a model call. The new run's arguments carry the provenance (`rescore.sourceRun`,
/// `rescore.changes`) and whatever `arguments` adds (the judge's measured reliability), which reports print.
public struct Rescorer: Sendable {
    /// Where the source run is read and the new run written.
    public let store: any ResultStore
    /// The checks and scorers to apply.
    public let scorer: SampleScorer
    /// A judge to score every output again; nil keeps stored judge scores.
    public let judge: LLMJudge?
    /// Whether the source run's pairwise verdicts are copied to the new run (false when they are judged again).
    public var keepsPairwiseVerdicts = true
    /// References by case id, from the run's dataset; cases without one get no reference-based scores.
    public let references: [String: Reference]
    /// Tools and expected tool calls by case id, from the run's dataset; their results are checked again from the
    /// stored calls (the parsed output's `tool_calls`).
    public let conversations: [String: ConversationCase]

    /// A rescorer; see the properties.
    public init(
        store: any ResultStore, scorer: SampleScorer, judge: LLMJudge? = nil, references: [String: Reference],
        conversations: [String: ConversationCase] = [:]
    ) {
        self.store = store
        self.scorer = scorer
        self.judge = judge
        self.references = references
        self.conversations = conversations
    }

    /// Writes run `newRunID` with every result of `sourceRunID` re-scored; `changes` says what differs from the
    /// source (e.g. `constraints from strict.json`). The new run keeps the source's arguments plus the provenance
    /// under `rescore`. Returns what was stored.
    public func rescore(
        sourceRunID: String, newRunID: String, changes: [String], arguments: [String: JSONValue] = [:]
    ) async throws(RescoreError) -> RescoreSummary {
        guard let source = try await wrap({ try await store.run(id: sourceRunID) }) else {
            throw .sourceNotFound(sourceRunID)
        }
        var provenance = source.arguments.objectValue ?? [:]
        provenance.merge(arguments) { _, new in new }
        provenance["rescore"] = ["sourceRun": .string(sourceRunID), "changes": .array(changes.map(JSONValue.string))]
        let planned = try await wrap { try await store.resultCount(run: sourceRunID) }
        try await wrap {
            try await store.createRun(RunRecord(
                id: newRunID, features: source.features, datasetPath: source.datasetPath, datasetHash: source.datasetHash,
                configVersion: source.configVersion, configHash: source.configHash, arguments: .object(provenance),
                plannedCount: planned, skippedInvalidLines: source.skippedInvalidLines, seed: source.seed))
        }
        var summary = RescoreSummary(runID: newRunID, sourceRunID: sourceRunID)
        var batch: [ResultRecord] = []
        try await wrap {
            try await store.forEachResult(run: sourceRunID, batchSize: 1_000) { record in
                let rescored = await rescored(record, into: newRunID)
                summary.count(before: record, after: rescored)
                batch.append(rescored)
                if batch.count >= 500 {
                    try await store.insertResults(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            if !batch.isEmpty { try await store.insertResults(batch) }
            if keepsPairwiseVerdicts {
                // The outputs are the same, so their stored pairwise judgements still hold.
                for var verdict in try await store.pairwiseVerdicts(run: sourceRunID) {
                    verdict.runID = newRunID
                    try await store.savePairwiseVerdict(verdict)
                }
            }
            try await store.finishRun(id: newRunID, at: Date())
        }
        return summary
    }

    /// The result with its checks and scores recomputed from the stored output, under the new run id.
    func rescored(_ record: ResultRecord, into runID: String) async -> ResultRecord {
        var result = record
        result.key.runID = runID
        guard record.error == nil, let output = record.rawOutput else { return result }
        let reference = references[record.key.caseID]
        let conversation = conversations[record.key.caseID]
        let calls = conversation == nil ? [] : TranscriptText.toolCalls(fromParsedOutput: record.parsedOutput)
        // With calls, the stored output is the rendering of text and calls; the text's checks wait for a text answer.
        let metrics = scorer.score(output: calls.isEmpty ? output : "", toolCalls: calls, reference: reference, conversation: conversation)
        result.constraints = metrics.constraintOutcomes
        result.parsedOutput = metrics.parsed ?? record.parsedOutput
        result.scores = metrics.qualityScores
        if let judge {
            result.scores += await judge.qualityScores(
                prompt: record.renderedPrompt ?? "", output: output, reference: reference?.expectedText)
        } else {
            result.scores += record.scores.filter { LLMJudge.isJudgeScore($0.scorer) }
        }
        return result
    }

    private func wrap<T>(_ body: () async throws -> T) async throws(RescoreError) -> T {
        do {
            return try await body()
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(.operationFailed(path: "", operation: "rescore", reason: String(describing: error)))
        }
    }
}

/// What a re-scoring stored and how the pass/fail outcomes moved.
public struct RescoreSummary: Sendable, Hashable {
    /// The new run.
    public var runID: String
    /// The run whose outputs were re-scored.
    public var sourceRunID: String
    /// Results written.
    public var stored = 0
    /// Results that passed every check before and fail one now.
    public var passToFail = 0
    /// Results that failed a check before and pass every one now.
    public var failToPass = 0

    /// An empty summary for `runID`.
    public init(runID: String, sourceRunID: String) {
        self.runID = runID
        self.sourceRunID = sourceRunID
    }

    mutating func count(before: ResultRecord, after: ResultRecord) {
        stored += 1
        guard before.error == nil, let was = before.allConstraintsPassed, let now = after.allConstraintsPassed else { return }
        if was && !now { passToFail += 1 }
        if !was && now { failToPass += 1 }
    }
}
