import Foundation
import HybridCollect
import HybridCore
import HybridReport
import HybridStore
import Testing

/// A field event's cost is never silently whole (#66): a call to a model without prices (an attempt with tokens and
/// no `costUSD`) marks the stored event, and the field report prints its arm's cost as a lower bound.
@Suite struct FieldEventCostTests {
    static func event(costOfCloud: Double?) -> RouteEvent {
        var cloud = RouteEvent.Attempt(model: "cloud", tier: .thirdParty, outcome: .served, startMs: 0, durationMs: 300)
        (cloud.inputTokens, cloud.outputTokens, cloud.costUSD) = (40, 10, costOfCloud)
        return RouteEvent(
            timestamp: Date(timeIntervalSince1970: 1_800_000_000), installId: "i", feature: "summarize", configVersion: 3,
            variant: "plain", servedBy: "cloud", outcome: .served, attempts: [cloud], latencyMs: 300)
    }

    @Test("an attempt with tokens and no cost marks the event's cost unknown; a priced one does not")
    func unpricedCallMarksTheEvent() throws {
        #expect(try FieldEventRecord.validated(Self.event(costOfCloud: nil)).get().costUnknown)
        #expect(try !FieldEventRecord.validated(Self.event(costOfCloud: 0.0001)).get().costUnknown)
    }

    @Test("the field report prints an arm's cost as a lower bound when some of its events had no price")
    func reportSaysLowerBound() {
        var arm = FieldArmSummary(
            name: "default", variants: ["plain"], events: 10, installs: 3, servedBy: ["cloud": 10], adherence: nil, fallback: nil,
            errors: nil, errorsByKind: [:], cacheHits: 0, latency: nil, ttft: nil, costPer1000: 0.5)
        #expect(arm.costText == "$0.5000" || arm.costText.hasPrefix("$0.5"), "\(arm.costText)")
        arm.costUnknownEvents = 3
        #expect(arm.costText.hasPrefix("≥ $0.5") && arm.costText.hasSuffix("(3 events of unknown price)"), "\(arm.costText)")
    }
}
