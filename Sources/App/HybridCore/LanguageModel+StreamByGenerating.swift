extension LanguageModel {
    /// `generate`'s answer as a stream: one delta with the whole text, then the completed response. For models
    /// that have their answer at once (replays of stored results, wrappers around another model), so each does
    /// not write the task, the typed catch and the cancellation on termination again.
    public func streamByGenerating(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error> {
        streamByGenerating(request, taskExecutor: nil)
    }

    /// `streamByGenerating(_:)` with its task on `taskExecutor`: a replay on a virtual clock keeps every task on
    /// the executor that moves that clock (an unstructured task does not inherit the caller's preference).
    package func streamByGenerating(
        _ request: GenerationRequest, taskExecutor: (any TaskExecutor)?
    ) -> AsyncThrowingStream<GenerationEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task.starting(on: taskExecutor) {
                do throws(GenerationError) {
                    let response = try await generate(request)
                    continuation.yield(.delta(response.text))
                    continuation.yield(.completed(response))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
