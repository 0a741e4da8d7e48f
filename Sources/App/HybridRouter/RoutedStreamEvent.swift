/// One event of a routed stream.
///
/// Order: `.attempt` for every model skipped or failed before output began, then `.delta`s from the serving
/// model, then its `.attempt` (`.served`), then exactly one `.completed`. When a model fails after its text was
/// shown (`routing.streamRecovery`), its `.attempt` (`interrupted`) comes next, then the next model's text: it
/// continues the text shown (`continue`, the default: no reset, the deltas simply go on), or `.reset` comes first
/// and its text starts the answer again (`restart`).
public enum RoutedStreamEvent: Sendable, Equatable {
    /// A model was skipped, failed, was cut at the deadline, or served.
    case attempt(RouteAttempt)
    /// New text from the serving model, in order.
    case delta(String)
    /// Every `.delta` so far is void: the model that sent them failed and the next one answers from the start.
    /// Clear the text shown.
    case reset
    /// The end: the full response and every attempt.
    case completed(RoutedResponse)
}
