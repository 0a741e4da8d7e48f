package import Foundation

/// A `ResultStore` whose three run-lifecycle calls (finish, interrupt, resume) are each one status write. The
/// SQLite and PostgreSQL stores share the mapping from call to status here, so it cannot drift between them;
/// `package`, because it is a helper for this package's stores, not a protocol apps conform to.
package protocol RunStatusStore: ResultStore {
    /// Sets the run's status and `finished_at` (nil clears it); `StoreError.runNotFound` when no run has the id.
    func setStatus(_ status: RunStatus, finishedAt: Date?, runID: String) async throws(StoreError)
}

extension RunStatusStore {
    /// Marks the run completed at `date`; see `ResultStore.finishRun(id:at:)`.
    public func finishRun(id: String, at date: Date) async throws(StoreError) {
        try await setStatus(.completed, finishedAt: date, runID: id)
    }

    /// Marks the run interrupted at `date`; see `ResultStore.markInterrupted(id:at:)`.
    public func markInterrupted(id: String, at date: Date) async throws(StoreError) {
        try await setStatus(.interrupted, finishedAt: date, runID: id)
    }

    /// Marks the run running again and clears `finishedAt`; see `ResultStore.markResumed(id:)`.
    public func markResumed(id: String) async throws(StoreError) {
        try await setStatus(.running, finishedAt: nil, runID: id)
    }
}
