/// One event of a routed stream.
///
/// Order: `.attempt` for every model skipped or failed before output began, then `.delta`s from the serving
/// model, then its `.attempt` (`.served`), then exactly one `.completed`.
public enum RoutedStreamEvent: Sendable, Equatable {
    /// A model was skipped, failed, was cut at the deadline, or served.
    case attempt(RouteAttempt)
    /// New text from the serving model, in order.
    case delta(String)
    /// The end: the full response and every attempt.
    case completed(RoutedResponse)
}

