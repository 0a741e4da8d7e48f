import Foundation

/// Quality against the share of requests sent to the cloud, for a family of routing rules (one point per threshold
/// of one input feature), with the all-device and all-cloud routes at its ends, and RouteLLM's two summaries: the
/// cloud share needed to recover half of the quality gap between them (the call-performance threshold) and the
/// average performance gap recovered (APGR, the area under the gap-recovered curve). The report and
/// `hybrid recommend --by-input` render the same value, so they cannot disagree.
public struct CostQualityCurve: Sendable, Hashable, Codable {
    /// One route: the share of requests it sends past the device, and its adherence.
    public struct Point: Sendable, Hashable, Codable {
        public var cloudShare: Double
        public var adherence: Double
        /// "inputCharacters ≥ 1500", "all-device", "all-cloud".
        public var label: String

        public init(cloudShare: Double, adherence: Double, label: String) {
            self.cloudShare = cloudShare
            self.adherence = adherence
            self.label = label
        }
    }

    /// The feature whose thresholds make the family.
    public var feature: String
    /// The family's points, by cloud share.
    public var points: [Point]
    public var allDevice: Point
    public var allCloud: Point

    /// A curve; `points` are sorted by cloud share.
    public init(feature: String, points: [Point], allDevice: Point, allCloud: Point) {
        self.feature = feature
        self.points = points.sorted { ($0.cloudShare, $0.adherence) < ($1.cloudShare, $1.adherence) }
        self.allDevice = allDevice
        self.allCloud = allCloud
    }

    /// The quality gap the cloud closes; the summaries are undefined when it is not positive.
    public var gap: Double { allCloud.adherence - allDevice.adherence }

    /// The share of the gap a point recovers.
    public func recovered(_ point: Point) -> Double { (point.adherence - allDevice.adherence) / gap }

    /// The smallest cloud share among the routes (ends included) that recover at least half of the gap; nil when
    /// the cloud is not better than the device.
    public var cloudShareFor50: Double? {
        guard gap > 0 else { return nil }
        return ([allDevice] + points + [allCloud]).filter { recovered($0) >= 0.5 }.map(\.cloudShare).min()
    }

    /// APGR: the area under gap recovered against cloud share over [0, 1], the ends included (trapezoids; the
    /// upper envelope, since a route that recovers less at a higher share is never chosen); 0.5 for a straight
    /// line between the ends, 1 for a rule that recovers the whole gap at no cloud share.
    public var averageGapRecovered: Double? {
        guard gap > 0 else { return nil }
        var best = -Double.infinity
        var envelope: [(x: Double, y: Double)] = []
        for point in [allDevice] + points + [allCloud] {
            best = max(best, recovered(point))
            envelope.append((point.cloudShare, best))
        }
        var area = 0.0
        for (a, b) in zip(envelope, envelope.dropFirst()) { area += (b.x - a.x) * (a.y + b.y) / 2 }
        return area
    }

    /// A Markdown section: the summaries, then one row per route.
    public func markdown() -> String {
        var lines = ["### Cost–quality curve (\(feature))", ""]
        lines.append(summary)
        lines += ["", "| route | to the cloud | adherence | gap recovered |", "|---|---|---|---|"]
        for point in [allDevice] + points + [allCloud] {
            let share = gap > 0 ? String(format: "%.0f %%", recovered(point) * 100) : "–"
            lines.append(String(format: "| %@ | %.0f %% | %.1f %% | %@ |", point.label, point.cloudShare * 100, point.adherence * 100, share))
        }
        return lines.joined(separator: "\n")
    }

    /// The two summaries in one sentence.
    public var summary: String {
        guard let half = cloudShareFor50, let apgr = averageGapRecovered else {
            return String(format: "The cloud is not better than the device here (adherence %.1f %% against %.1f %%): no gap to recover.",
                          allCloud.adherence * 100, allDevice.adherence * 100)
        }
        return String(format: "Half of the quality gap (%.1f %% → %.1f %%) is recovered with %.0f %% of requests sent to the cloud; average gap recovered (APGR) %.2f.",
                      allDevice.adherence * 100, allCloud.adherence * 100, half * 100, apgr)
    }

    /// An inline SVG chart for the HTML report: adherence (y) against cloud share (x), the family as a line, the
    /// ends as squares.
    public func svg(width: Double = 420, height: Double = 260) -> String {
        let pad = 40.0
        let low = min(allDevice.adherence, allCloud.adherence, points.map(\.adherence).min() ?? 1)
        let span = max(0.01, 1 - low)
        func x(_ p: Point) -> Double { pad + p.cloudShare * (width - 2 * pad) }
        func y(_ p: Point) -> Double { height - pad - (p.adherence - low) / span * (height - 2 * pad) }
        let path = ([allDevice] + points + [allCloud]).map { String(format: "%.1f,%.1f", x($0), y($0)) }.joined(separator: " ")
        var parts = [String(format: "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" role=\"img\" aria-label=\"adherence against the share sent to the cloud\">", width, height)]
        parts.append(String(format: "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#888\"/>", pad, height - pad, width - pad, height - pad))
        parts.append(String(format: "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#888\"/>", pad, pad, pad, height - pad))
        parts.append("<polyline fill=\"none\" stroke=\"#36c\" stroke-width=\"2\" points=\"\(path)\"/>")
        for end in [allDevice, allCloud] {
            parts.append(String(format: "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"#c63\"><title>%@</title></rect>", x(end) - 4, y(end) - 4, Self.escaped(end.label)))
        }
        parts.append(String(format: "<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\">share sent to the cloud →</text>", width / 2 - 60, height - 10))
        parts.append(String(format: "<text x=\"4\" y=\"%.0f\" font-size=\"11\">adherence (%.0f–100 %%)</text>", pad - 10, low * 100))
        parts.append("</svg>")
        return parts.joined()
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
