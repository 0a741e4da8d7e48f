import Foundation

/// The inline SVG charts of the HTML report. Each chart is one `<svg class="chart …">` sized in pixels, drawn
/// only from ``RunReport`` figures, with a `<title>` per mark so hovering shows the number.
enum HTMLCharts {
    static let palette = ["#0969da", "#bf3989", "#1a7f37", "#9a6700", "#8250df", "#cf222e", "#0a7e8c", "#57606a"]

    /// Latency distribution per arm: whisker p5–p95, box p25–p75, median line, p99 dot, on a shared axis.
    static func latency(_ feature: FeatureReport) -> String {
        let arms = feature.arms.filter { $0.latency.totalMs?.quantiles != nil }
        guard !arms.isEmpty else { return "" }
        let width = 560.0
        let left = 170.0
        let right = 20.0
        let rowHeight = 28.0
        let top = 30.0
        let height = top + Double(arms.count) * rowHeight + 36
        let maxValue = arms.compactMap { $0.latency.totalMs?.p99 }.max() ?? 1
        let scale = (width - left - right) / max(maxValue * 1.05, 1)
        func x(_ value: Double) -> Double { left + value * scale }
        var out = svgOpen("latency-chart", width, height, "Total latency per arm (ms)")
        out += "<text class=\"title\" x=\"8\" y=\"18\">Total latency (ms): p5–p95 whiskers, p25–p75 box, median, p99 dot</text>\n"
        for (index, arm) in arms.enumerated() {
            guard let total = arm.latency.totalMs, let q = total.quantiles, q.count == 21 else { continue }
            let y = top + Double(index) * rowHeight + rowHeight / 2
            let color = palette[index % palette.count]
            out += "<g class=\"latency-arm\"><title>\(escape(arm.armID)): p50 \(f(total.p50)) ms, p95 \(f(total.p95)) ms, p99 \(f(total.p99)) ms (n = \(total.count))</title>"
            out += "<text x=\"8\" y=\"\(f(y + 4))\">\(escape(short(arm.armID)))</text>"
            out += line(x(q[1]), y, x(q[19]), y, color)
            out += "<rect x=\"\(f(x(q[5])))\" y=\"\(f(y - 8))\" width=\"\(f(max(1, x(q[15]) - x(q[5]))))\" height=\"16\" fill=\"\(color)\" fill-opacity=\"0.25\" stroke=\"\(color)\"/>"
            out += line(x(total.p50), y - 9, x(total.p50), y + 9, color, width: 2)
            out += "<circle cx=\"\(f(x(total.p99)))\" cy=\"\(f(y))\" r=\"3\" fill=\"\(color)\"/></g>\n"
        }
        out += axis(left: left, right: width - right, y: height - 26, maxValue: maxValue * 1.05, scale: scale, unit: "ms")
        return out + "</svg>\n"
    }

    /// Primary quality mean against cost per 1,000 requests; Pareto-optimal arms filled and joined by a line.
    static func qualityVersusCost(_ feature: FeatureReport) -> String {
        guard let scorer = feature.primaryScorer else { return "" }
        let points = feature.arms.enumerated().compactMap { index, arm -> (Int, ArmSummary, Double, Double)? in
            guard let quality = arm.quality(scorer)?.mean, let cost = arm.cost?.per1kRequestsUSD else { return nil }
            return (index, arm, cost, quality)
        }
        guard !points.isEmpty else { return "" }
        let width = 480.0
        let height = 300.0
        let (left, right, top, bottom) = (56.0, 130.0, 30.0, 44.0)
        let maxCost = max(points.map(\.2).max() ?? 1, 1e-9) * 1.1
        let qualities = points.map(\.3)
        let minQuality = min(qualities.min() ?? 0, 0)
        let maxQuality = max(qualities.max() ?? 1, minQuality + 1e-9) * 1.05
        func x(_ cost: Double) -> Double { left + cost / maxCost * (width - left - right) }
        func y(_ quality: Double) -> Double { height - bottom - (quality - minQuality) / (maxQuality - minQuality) * (height - top - bottom) }
        var out = svgOpen("pareto-chart", width, height, "Quality versus cost per arm")
        out += "<text class=\"title\" x=\"8\" y=\"18\">\(escape(scorer)) vs cost / 1k requests (filled: Pareto front)</text>\n"
        out += line(left, height - bottom, width - right, height - bottom, "#57606a")
        out += line(left, top, left, height - bottom, "#57606a")
        out += "<text x=\"\(f(width - right))\" y=\"\(f(height - 12))\" text-anchor=\"end\">cost / 1k requests, max \(escape(ReportFormatting.usd(maxCost / 1.1)))</text>"
        out += "<text x=\"8\" y=\"\(f(top + 4))\">\(f3(maxQuality))</text><text x=\"8\" y=\"\(f(height - bottom))\">\(f3(minQuality))</text>\n"
        let front = points.filter { $0.1.paretoOptimal == true }.sorted { $0.2 < $1.2 }
        if front.count > 1 {
            let path = front.map { "\(f(x($0.2))),\(f(y($0.3)))" }.joined(separator: " ")
            out += "<polyline class=\"pareto-front\" points=\"\(path)\" fill=\"none\" stroke=\"#1a7f37\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\"/>\n"
        }
        for (index, arm, cost, quality) in points {
            let color = palette[index % palette.count]
            let optimal = arm.paretoOptimal == true
            out += "<g class=\"pareto-point\"><title>\(escape(arm.armID)): \(escape(scorer)) \(f3(quality)), \(escape(ReportFormatting.usd(cost))) per 1k\(optimal ? ", Pareto-optimal" : "")</title>"
            out += "<circle cx=\"\(f(x(cost)))\" cy=\"\(f(y(quality)))\" r=\"6\" fill=\"\(optimal ? color : "#fff")\" stroke=\"\(color)\" stroke-width=\"2\"/>"
            out += "<text x=\"\(f(x(cost) + 9))\" y=\"\(f(y(quality) + 4))\">\(escape(short(arm.armID)))</text></g>\n"
        }
        return out + "</svg>\n"
    }

    /// Adherence rate per arm as bars with the Wilson interval as a whisker.
    static func adherence(_ feature: FeatureReport) -> String {
        let arms = feature.arms.filter { $0.adherence != nil }
        guard !arms.isEmpty else { return "" }
        let width = 560.0
        let left = 170.0
        let right = 60.0
        let rowHeight = 26.0
        let top = 30.0
        let height = top + Double(arms.count) * rowHeight + 36
        let span = width - left - right
        var out = svgOpen("adherence-chart", width, height, "Constraint adherence per arm")
        out += "<text class=\"title\" x=\"8\" y=\"18\">Constraint adherence (bar) with Wilson 95% interval</text>\n"
        for (index, arm) in arms.enumerated() {
            guard let p = arm.adherence else { continue }
            let y = top + Double(index) * rowHeight
            let color = palette[index % palette.count]
            out += "<g class=\"adherence-bar\"><title>\(escape(arm.armID)): \(escape(ReportFormatting.proportion(p)))</title>"
            out += "<text x=\"8\" y=\"\(f(y + 15))\">\(escape(short(arm.armID)))</text>"
            out += "<rect x=\"\(f(left))\" y=\"\(f(y + 4))\" width=\"\(f(max(0.5, p.rate * span)))\" height=\"16\" fill=\"\(color)\" fill-opacity=\"0.7\"/>"
            out += line(left + p.lower * span, y + 12, left + p.upper * span, y + 12, "#1f2328", width: 1.5)
            out += line(left + p.lower * span, y + 7, left + p.lower * span, y + 17, "#1f2328")
            out += line(left + p.upper * span, y + 7, left + p.upper * span, y + 17, "#1f2328")
            out += "<text x=\"\(f(width - right + 6))\" y=\"\(f(y + 15))\">\(escape(ReportFormatting.percent(p.rate)))</text></g>\n"
        }
        out += axis(left: left, right: width - right, y: height - 26, maxValue: 100, scale: span / 100, unit: "%")
        return out + "</svg>\n"
    }

    private static func svgOpen(_ className: String, _ width: Double, _ height: Double, _ label: String) -> String {
        "<svg class=\"chart \(className)\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(f(width))\" height=\"\(f(height))\" "
            + "viewBox=\"0 0 \(f(width)) \(f(height))\" role=\"img\" aria-label=\"\(escape(label))\">\n"
    }

    private static func axis(left: Double, right: Double, y: Double, maxValue: Double, scale: Double, unit: String) -> String {
        var out = line(left, y, right, y, "#57606a")
        for step in 0...4 {
            let value = maxValue * Double(step) / 4
            let x = left + value * scale
            out += line(x, y, x, y + 4, "#57606a")
            out += "<text x=\"\(f(x))\" y=\"\(f(y + 16))\" text-anchor=\"middle\">\(escape(ReportFormatting.ms(value)))\(step == 4 ? " " + unit : "")</text>"
        }
        return out + "\n"
    }

    private static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ color: String, width: Double = 1) -> String {
        "<line x1=\"\(f(x1))\" y1=\"\(f(y1))\" x2=\"\(f(x2))\" y2=\"\(f(y2))\" stroke=\"\(color)\" stroke-width=\"\(f(width))\"/>"
    }

    /// Arm ids can be long; charts show at most 24 characters (the title element has the full id).
    private static func short(_ id: String) -> String {
        id.count <= 24 ? id : String(id.prefix(23)) + "…"
    }

    static func f(_ value: Double) -> String { String(format: "%.1f", value) }
    static func f3(_ value: Double) -> String { String(format: "%.3f", value) }

    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
