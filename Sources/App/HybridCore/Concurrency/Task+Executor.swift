extension Task where Failure == Never {
    /// An unstructured task on `executor` when there is one (a replay on a virtual clock keeps every task on the
    /// executor that moves that clock), a plain `Task` otherwise: `Task(executorPreference: nil)` takes a slower
    /// creation path, about 1.3 µs more per task in `hybrid-bench router`'s deadline race, which starts two.
    @discardableResult
    package static func starting(on executor: (any TaskExecutor)?, _ operation: sending @escaping () async -> Success) -> Task {
        guard let executor else { return Task(operation: operation) }
        return Task(executorPreference: executor, operation: operation)
    }
}
