import CoreMetrics
import Synchronization
import Tracing

/// A tracer that keeps each span's name, attributes, events and status under a lock and, at its end, counts it and
/// drops it: a backend whose span end is a hand-off (as swift-otel's batch processor enqueues a finished span), so a
/// row over it shows the router's own telemetry work rather than an in-memory store's.
struct HandOffTracer: Tracer {
    let ended = SpanCount()

    func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> InstrumentationContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> HandOffSpan {
        HandOffSpan(operationName: operationName, context: context(), ended: ended)
    }

    func forceFlush() {}

    func extract<Carrier, Extract: Extractor>(_ carrier: Carrier, into context: inout InstrumentationContext, using extractor: Extract)
    where Extract.Carrier == Carrier {}

    func inject<Carrier, Inject: Injector>(_ context: InstrumentationContext, into carrier: inout Carrier, using injector: Inject)
    where Inject.Carrier == Carrier {}
}

/// Spans ended so far.
final class SpanCount: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
    func add() { count.add(1, ordering: .relaxed) }
}

/// `HandOffTracer`'s span.
final class HandOffSpan: Span {
    private struct State {
        var operationName: String
        var attributes = SpanAttributes()
        var events: [SpanEvent] = []
        var status: SpanStatus?
    }

    let context: InstrumentationContext
    private let state: Mutex<State>
    private let ended: SpanCount

    init(operationName: String, context: InstrumentationContext, ended: SpanCount) {
        self.context = context
        self.state = Mutex(State(operationName: operationName))
        self.ended = ended
    }

    var operationName: String {
        get { state.withLock { $0.operationName } }
        set { state.withLock { $0.operationName = newValue } }
    }

    var attributes: SpanAttributes {
        get { state.withLock { $0.attributes } }
        set { state.withLock { $0.attributes = newValue } }
    }

    var isRecording: Bool { true }

    func setStatus(_ status: SpanStatus) { state.withLock { $0.status = status } }
    func addEvent(_ event: SpanEvent) { state.withLock { $0.events.append(event) } }
    func recordError<Instant: TracerInstant>(_ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant) {}
    func addLink(_ link: SpanLink) {}
    func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) { ended.add() }
}

/// A metrics backend whose handlers only keep their last value: creating a handle is one allocation and recording
/// one atomic store, so a row over it shows the router's own metric work (labels, dimensions, handle objects).
struct LastValueMetrics: MetricsFactory {
    final class Handler: CounterHandler, FloatingPointCounterHandler, RecorderHandler, TimerHandler, MeterHandler, Sendable {
        private let last = Atomic<Int64>(0)
        func increment(by amount: Int64) { last.store(amount, ordering: .relaxed) }
        func increment(by amount: Double) { last.store(Int64(amount), ordering: .relaxed) }
        func reset() { last.store(0, ordering: .relaxed) }
        func record(_ value: Int64) { last.store(value, ordering: .relaxed) }
        func record(_ value: Double) { last.store(Int64(value), ordering: .relaxed) }
        func recordNanoseconds(_ duration: Int64) { last.store(duration, ordering: .relaxed) }
        func set(_ value: Int64) { last.store(value, ordering: .relaxed) }
        func set(_ value: Double) { last.store(Int64(value), ordering: .relaxed) }
        func decrement(by amount: Double) {}
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler { Handler() }
    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler { Handler() }
    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler { Handler() }
    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler { Handler() }
    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler { Handler() }
    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}
    func destroyMeter(_ handler: any MeterHandler) {}
}
