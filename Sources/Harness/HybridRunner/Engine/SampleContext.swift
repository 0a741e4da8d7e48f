import Foundation
import HybridConfig
import HybridCore
import HybridStore

/// What every work item of one run shares; turns one item into the result row to store.
struct SampleContext: Sendable {
    let plan: EvalPlan
    let scorer: SampleScorer
    let store: any ResultStore
    let models: [String: any LanguageModel]
    let options: EvalOptions
    /// Model id → why it is unavailable; such arms are stored as errors without a call.
    let unavailable: [String: String]

    /// The result for `item` and the response worth caching, or nil when the request was cancelled (so the key
    /// stays missing for a resume).
    func execute(_ item: EvalPlan.WorkItem) async -> (record: ResultRecord, cache: CachedResponseRecord?)? {
        // Decoded here, as it is dispatched: a streamed dataset's bad line is reported by the run's validation,
        // which stops the run before anything is stored, so this sample just stores nothing.
        guard let evalCase = try? plan.dataset.evalCase(at: item.caseIndex) else { return nil }
        let arm = item.arm
        let rendered: RenderedPrompt
        do {
            rendered = try Self.render(evalCase, plan: plan, variant: arm.variant)
        } catch {
            return (record(item, evalCase, prompt: "", error: ResultError(kind: GenerationError.Kind.invalidRequest.rawValue, message: error.description)), nil)
        }
        if let reason = unavailable[arm.modelID] {
            return (record(item, evalCase, prompt: rendered.prompt, error: ResultError(kind: GenerationError.Kind.unavailable.rawValue, message: "\(arm.modelID): unavailable: \(reason)")), nil)
        }
        guard let model = models[arm.modelID] else { return nil }
        if !options.sendOversizedPrompts, let overflow = Self.contextOverflow(rendered.request, model: model) {
            return (record(item, evalCase, prompt: rendered.prompt, error: ResultError(kind: overflow.kind.rawValue, message: overflow.description)), nil)
        }
        let requestHash = RequestFingerprint.hash(modelID: arm.modelID, request: rendered.request, repeatIndex: item.repeatIndex)

        if options.useCache, let cached = try? await store.cachedResponse(requestHash: requestHash) {
            let response = GenerationResponse(
                text: cached.text, structured: cached.structured, servedBy: model.identity, usage: cached.usage,
                timing: GenerationTiming(timeToFirstToken: cached.ttftMs.map { .milliseconds($0) }, total: .milliseconds(cached.totalMs)),
                finishReason: .stop)
            var stored = success(item, evalCase, prompt: rendered.prompt, response: response, retries: 0, retryTime: .zero, cacheHit: true)
            await addJudgeScore(to: &stored, prompt: rendered.prompt, output: response.text, reference: evalCase.reference)
            return (stored, nil)
        }

        // The feature's deadline (set when the prompt was rendered, i.e. once this sample holds its slots) bounds
        // the sample as a whole: every attempt, retry and back-off. A server that never answers costs one
        // deadline, and the cut attempt is stored as `timeout` with the time it took.
        let request = rendered.request
        let seed = plan.seed ^ UInt64(truncatingIfNeeded: item.caseIndex &* 1_000_003 &+ item.repeatIndex)
        let executor = SampleExecutor(policy: options.retryPolicy)
        let outcome = await executor.execute(request, on: model, jitter: { Double(seed % 1000) / 1000 })
        if let response = outcome.response {
            // The cache keeps text only; an answer with tool calls is not cached rather than replayed without them.
            let cacheEntry = !response.toolCalls.isEmpty ? nil : CachedResponseRecord(
                requestHash: requestHash, modelID: arm.modelID, text: response.text, structured: response.structured,
                usage: response.usage, ttftMs: response.timing.timeToFirstToken?.milliseconds,
                totalMs: response.timing.total.milliseconds)
            var stored = success(item, evalCase, prompt: rendered.prompt, response: response, retries: outcome.retries, retryTime: outcome.retryTime, cacheHit: false)
            await addJudgeScore(to: &stored, prompt: rendered.prompt, output: response.text, reference: evalCase.reference)
            return (stored, cacheEntry)
        }
        let error = outcome.error ?? .serverError(model: arm.modelID, status: nil, detail: "no response and no error")
        if error.kind == .cancelled { return nil }
        var failed = record(item, evalCase, prompt: rendered.prompt, error: ResultError(kind: error.kind.rawValue, message: error.description))
        failed.retries = outcome.retries
        failed.timings.retryBackoffMs = outcome.retryTime.milliseconds
        // What the caller waited to learn of the failure; simulations charge it to a fallback route.
        failed.timings.totalMs = outcome.failedAttemptDuration?.milliseconds ?? 0
        return (failed, nil)
    }

    /// The request for `evalCase`: its own turns when it has them, else the feature's template over its input;
    /// a conversation case's tools are offered either way. The stored prompt of a multi-turn case is its transcript.
    static func render(_ evalCase: EvalCase, plan: EvalPlan, variant: String) throws(PromptRenderError) -> RenderedPrompt {
        guard let conversation = evalCase.conversation else {
            return try plan.featureConfig.render(name: plan.feature, variant: variant, input: evalCase.input)
        }
        var rendered: RenderedPrompt
        if conversation.messages.isEmpty {
            rendered = try plan.featureConfig.render(name: plan.feature, variant: variant, input: evalCase.input)
        } else {
            rendered = try plan.featureConfig.render(name: plan.feature, variant: variant, messages: conversation.messages)
            rendered.prompt = TranscriptText.transcript(conversation.messages)
        }
        rendered.request.tools = conversation.tools
        return rendered
    }

    /// A prompt whose estimated size alone is above the model's declared context window cannot be answered: it
    /// is stored as `context_window_exceeded` without a call (the estimate is about 4 characters per token, so
    /// only prompts that clearly cannot fit are held back; `--send-oversized-prompts` sends them anyway).
    static func contextOverflow(_ request: GenerationRequest, model: any LanguageModel) -> GenerationError? {
        let window = model.capabilities.contextWindow
        guard window > 0 else { return nil }
        let estimated = TokenEstimator.estimate(request)
        guard estimated > window else { return nil }
        return .contextWindowExceeded(
            model: model.id,
            detail: "not sent: the prompt is about \(estimated) tokens, more than the declared context window of "
                + "\(window) tokens (pass --send-oversized-prompts to send it anyway)")
    }

    /// Adds the judge's scores (see ``LLMJudge/qualityScores(prompt:output:reference:)``).
    private func addJudgeScore(to record: inout ResultRecord, prompt: String, output: String, reference: Reference?) async {
        guard let judge = options.judge else { return }
        record.scores += await judge.qualityScores(prompt: prompt, output: output, reference: reference?.expectedText)
    }

    private func success(
        _ item: EvalPlan.WorkItem, _ evalCase: EvalCase, prompt: String, response: GenerationResponse, retries: Int, retryTime: Duration, cacheHit: Bool
    ) -> ResultRecord {
        let metrics = scorer.score(
            output: response.text, toolCalls: response.toolCalls, reference: evalCase.reference, conversation: evalCase.conversation)
        // A model without prices in the config has an unknown cost, stored as such (nil), never as $0.
        let pricing = plan.pricing[item.arm.modelID] ?? (item.arm.tier == .thirdParty ? nil : .free)
        return ResultRecord(
            key: key(item, evalCase), feature: plan.feature, promptVariant: item.arm.variant, modelID: item.arm.modelID,
            tier: item.arm.tier, renderedPromptHash: ContentHash.hex(of: prompt), renderedPrompt: prompt,
            configVersion: plan.configVersion, configHash: plan.configHash,
            rawOutput: TranscriptText.output(text: response.text, toolCalls: response.toolCalls),
            parsedOutput: metrics.parsed ?? response.structured, usage: response.usage,
            timings: ResultTimings(response.timing, retryBackoff: retryTime, coldStart: response.coldStart && !cacheHit),
            costUSD: cacheHit ? 0 : pricing?.cost(of: response.usage),
            constraints: metrics.constraintOutcomes, scores: metrics.qualityScores,
            retries: retries, cacheHit: cacheHit)
    }

    private func record(_ item: EvalPlan.WorkItem, _ evalCase: EvalCase, prompt: String, error: ResultError) -> ResultRecord {
        ResultRecord(
            key: key(item, evalCase), feature: plan.feature, promptVariant: item.arm.variant, modelID: item.arm.modelID,
            tier: item.arm.tier, renderedPromptHash: ContentHash.hex(of: prompt), renderedPrompt: prompt,
            configVersion: plan.configVersion, configHash: plan.configHash, rawOutput: nil, usage: nil,
            timings: ResultTimings(totalMs: 0), error: error)
    }

    private func key(_ item: EvalPlan.WorkItem, _ evalCase: EvalCase) -> ResultKey {
        ResultKey(runID: plan.runID, caseID: evalCase.id, armID: item.arm.id, repeatIndex: item.repeatIndex)
    }
}
