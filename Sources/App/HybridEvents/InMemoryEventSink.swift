public import HybridCore
import Synchronization

/// Keeps every event in memory, in arrival order: for tests, previews and apps that read their own figures.
public final class InMemoryEventSink: RouteEventSink {
    private let stored = Mutex<[RouteEvent]>([])

    /// An empty sink.
    public init() {}

    public func record(_ event: RouteEvent) {
        stored.withLock { $0.append(event) }
    }

    /// Every event recorded so far.
    public var events: [RouteEvent] { stored.withLock { $0 } }

    /// Returns the events recorded so far and forgets them.
    public func drain() -> [RouteEvent] {
        stored.withLock { events in
            defer { events = [] }
            return events
        }
    }
}
