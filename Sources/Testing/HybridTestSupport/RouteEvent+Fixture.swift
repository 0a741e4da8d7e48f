import Foundation
package import HybridCore

extension RouteEvent {
    /// A served event with a distinct id per `index` (installs, arms and buckets vary with it): what the sink and
    /// uploader tests write and read back.
    package static func fixture(_ index: Int) -> RouteEvent {
        RouteEvent(
            id: "event-\(index)", timestamp: Date(timeIntervalSince1970: 1_795_000_000 + Double(index)), installId: "install-\(index % 7)",
            feature: "summarize", configVersion: 3, variant: "plain", rolloutArm: index.isMultiple(of: 2) ? "bullets" : nil,
            bucket: index * 37 % 10_000, servedBy: "local", servedTier: .onDevice, outcome: .served,
            attempts: [.init(model: "local", tier: .onDevice, outcome: .served, startMs: 0, durationMs: 120)],
            latencyMs: 121, inputTokens: 40, outputTokens: 12, labels: ["appVersion": "1.0"])
    }
}
