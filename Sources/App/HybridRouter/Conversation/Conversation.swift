import HybridConfig
public import HybridCore

/// A conversation with one feature: the app registers its tools, sends turns, and the router runs the tool loop.
///
/// Each turn appends the user's text, then repeats: route a step (the feature's priority order with every routing
/// rule: fallback, privacy, budgets, output checks), and when the answer calls tools, run them through the app's
/// handlers and append the calls and results; until the model answers without a call or `stepLimit` steps have
/// run. Every step walks the priority order again with the whole transcript, so a model that fails mid-turn is
/// replaced by the next one, which receives the earlier tool calls and results in its own wire format. The
/// feature's deadline (or the one given to `send`) covers the whole turn: model calls and tool handlers.
///
/// The transcript is readable (``transcript``, `Codable` turns the app may persist) and restorable
/// (``restore(_:)``, or the `transcript:` argument when opening). A turn that fails leaves it as it was before.
public actor Conversation {
    /// The feature this conversation serves.
    nonisolated let feature: String
    /// The most model calls one turn may make.
    nonisolated let stepLimit: Int
    /// Every turn so far, oldest first: user text, assistant answers and tool calls, tool results.
    public private(set) var transcript: [ChatMessage]

    private let router: Router
    private let tools: [ConversationTool]
    private let privacy: PrivacyClass?
    private var busy = false

    init(router: Router, feature: String, tools: [ConversationTool], transcript: [ChatMessage], privacy: PrivacyClass?, stepLimit: Int) {
        self.router = router
        self.feature = feature
        self.tools = tools
        self.transcript = transcript
        self.privacy = privacy
        self.stepLimit = max(1, stepLimit)
    }

    /// The tools offered to the model, as registered.
    nonisolated var toolDefinitions: [ToolDefinition] { tools.map(\.definition) }

    /// Replaces the transcript, e.g. with one saved from an earlier session.
    public func restore(_ transcript: [ChatMessage]) {
        self.transcript = transcript
    }

    /// Sends the user's `text` and runs the turn to the model's final answer.
    ///
    /// - Parameter deadline: overrides the feature's `deadlineMs` for this turn.
    public func send(_ text: String, deadline: Duration? = nil) async throws(ConversationError) -> ConversationTurn {
        guard !busy else { throw ConversationError(.busy, feature: feature) }
        if let mistake = tools.lazy.compactMap(\.argumentsError).first {
            throw ConversationError(.routing(.invalidOutputType(feature: feature, mistake)), feature: feature)
        }
        busy = true
        defer { busy = false }
        var telemetry = router.telemetry.begin()
        let start = router.clock.now()
        // Started now and named once a step's plan is known: the turn's span is the current context throughout, so
        // the tool handlers' spans (and the app's own) are its children.
        telemetry?.startSpan(requestModel: nil)
        var plan: Plan?
        let result = await RequestTelemetry.within(telemetry) {
            await turn(text, deadline: deadline, start: start, plan: &plan, telemetry: telemetry)
        }
        if var telemetry {
            let document = if let plan { plan.document } else { await router.configSource.document() }
            let summary = RouteSummary(turn: result, feature: feature, document: document, plan: plan)
            telemetry.finish(summary, elapsed: router.clock.now() - start)
        }
        return try result.get()
    }

    /// The turn's tool loop; `plan` is left at the last step's plan (what the turn's span describes).
    private func turn(
        _ text: String, deadline: Duration?, start: ContinuousClock.Instant, plan lastPlan: inout Plan?,
        telemetry: RequestTelemetry?
    ) async -> Result<ConversationTurn, ConversationError> {
        var working = transcript + [.user(text)]
        var steps: [ConversationStep] = []
        for _ in 0..<stepLimit {
            let routed: RoutedResponse
            let turnDeadline: ContinuousClock.Instant?
            do {
                let plan = try await router.makeConversationPlan(
                    feature: feature, messages: working, tools: toolDefinitions, privacy: privacy, start: start,
                    deadline: deadline)
                lastPlan = plan
                turnDeadline = plan.deadline
                routed = try await router.walkGenerate(plan)
            } catch {
                return .failure(ConversationError(.routing(error), feature: feature, steps: steps))
            }
            let response = routed.response
            working.append(.assistant(response.text, toolCalls: response.toolCalls))
            guard !response.toolCalls.isEmpty else {
                steps.append(ConversationStep(routed: routed, toolExecutions: []))
                transcript = working
                return .success(ConversationTurn(response: response, steps: steps))
            }
            var executions: [ToolExecution] = []
            for call in response.toolCalls {
                let toolSpan = telemetry?.startToolSpan(call, at: router.clock.now() - start)
                let execution = await RequestTelemetry.within(span: toolSpan) { await run(call, until: turnDeadline) }
                toolSpan.map { telemetry?.endToolSpan($0, execution, at: router.clock.now() - start) }
                guard let execution else {
                    steps.append(ConversationStep(routed: routed, toolExecutions: executions))
                    return .failure(ConversationError(.deadline, feature: feature, steps: steps))
                }
                executions.append(execution)
                working.append(.toolResult(for: call, content: execution.result))
            }
            steps.append(ConversationStep(routed: routed, toolExecutions: executions))
        }
        return .failure(ConversationError(.stepLimit(stepLimit), feature: feature, steps: steps))
    }

    /// Runs one call through its handler, racing the turn's deadline; nil when the deadline came first. A call to
    /// an unknown tool, or with arguments that fail the tool's schema, is answered with the problem instead, so the
    /// model can correct itself.
    private func run(_ call: ToolCall, until deadline: ContinuousClock.Instant?) async -> ToolExecution? {
        guard let tool = tools.first(where: { $0.name == call.name }) else {
            let offered = tools.map(\.name).joined(separator: ", ")
            return ToolExecution(call: call, result: "error: no tool named \(call.name) (tools: \(offered))", succeeded: false, duration: .zero)
        }
        if let violation = ToolCallCheck(tools: [tool.definition]).violations([call]).first {
            return ToolExecution(call: call, result: "error: \(violation.message) at \(violation.path)", succeeded: false, duration: .zero)
        }
        let clock = router.clock
        let started = clock.now()
        let handler = tool.handler
        let outcome = await DeadlineRace.run(until: deadline, clock: clock) { () async throws(GenerationError) -> ToolExecution in
            do {
                let result = try await handler(call)
                return ToolExecution(call: call, result: result, succeeded: true, duration: clock.now() - started)
            } catch {
                return ToolExecution(call: call, result: "error: \(error)", succeeded: false, duration: clock.now() - started)
            }
        }
        switch outcome {
        case .finished(.success(let execution)): return execution
        case .finished(.failure(let error)):
            return ToolExecution(call: call, result: "error: \(error)", succeeded: false, duration: clock.now() - started)
        case .deadline, .callerCancelled: return nil
        }
    }
}
