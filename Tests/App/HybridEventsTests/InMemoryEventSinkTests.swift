import Foundation
@testable import HybridCore
@testable import HybridEvents
@testable import HybridValidation
import Testing

@Suite struct InMemoryEventSinkTests {
    @Test func keepsEventsInOrderAndDrains() {
        let sink = InMemoryEventSink()
        for i in 0..<3 {
            sink.record(RouteEvent(
                id: "e\(i)", timestamp: Date(), installId: "i", feature: "f", configVersion: 1, variant: "v",
                outcome: .served, latencyMs: 1))
        }
        #expect(sink.events.map(\.id) == ["e0", "e1", "e2"])
        #expect(sink.drain().count == 3)
        #expect(sink.events.isEmpty)
    }
}
