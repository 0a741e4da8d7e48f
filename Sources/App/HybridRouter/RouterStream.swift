/// What the router's streams return: an `AsyncSequence` whose iteration throws ``RouterError`` and nothing else, so
/// `catch` in a `for try await` loop hands the app a typed error (`error.code`, `error.attempts`) without a cast.
///
/// `AsyncThrowingStream` can only be made with `any Error` as its failure; this wraps one and types what escapes.
/// Stopping the iteration (leaving the loop, cancelling the task) cancels the model call, as before; a cancelled
/// consumer's stream ends quietly rather than throwing.
public struct RouterStream<Element: Sendable>: AsyncSequence, Sendable {
    private let base: AsyncThrowingStream<Element, any Error>
    private let feature: String

    init(_ base: AsyncThrowingStream<Element, any Error>, feature: String) {
        self.base = base
        self.feature = feature
    }

    /// The iterator; `next()` throws ``RouterError``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var base: AsyncThrowingStream<Element, any Error>.AsyncIterator
        private let feature: String

        init(_ base: AsyncThrowingStream<Element, any Error>.AsyncIterator, feature: String) {
            self.base = base
            self.feature = feature
        }

        /// The next element; nil at the end.
        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(RouterError) -> Element? {
            do {
                return try await base.next(isolation: actor)
            } catch {
                throw RouterStream.routerError(error, feature: feature)
            }
        }

        /// The next element; nil at the end.
        public mutating func next() async throws(RouterError) -> Element? {
            try await next(isolation: nil)
        }
    }

    /// Starts iterating.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base.makeAsyncIterator(), feature: feature)
    }

    /// Every failure the router's producers raise is a `RouterError`; a cancellation that reached the stream
    /// otherwise is the request's cancellation.
    static func routerError(_ error: any Error, feature: String) -> RouterError {
        if let error = error as? RouterError { return error }
        return .cancelled(feature: feature, attempts: [])
    }
}
