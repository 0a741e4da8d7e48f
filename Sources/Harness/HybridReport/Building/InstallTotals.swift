import HybridStore

/// One install's sums over its events in a field run: the unit every arm-vs-control figure is computed on (an
/// experiment randomises installs, so an install's events are one observation, not many).
struct InstallTotals {
    var events = 0
    var adherent = 0
    var fellBack = 0
    var failed = 0
    var costUSD = 0.0
    var costSquares = 0.0
    /// Answered, uncached events and their latency.
    var answered = 0
    var latencySum = 0.0
    var latencySquares = 0.0
    var latencies: [Double] = []
    var ttftCount = 0
    var ttftSum = 0.0
    var ttftSquares = 0.0

    mutating func add(_ record: FieldEventRecord, keepLatencies: Bool) {
        events += 1
        if record.adherent { adherent += 1 }
        if record.fellBack { fellBack += 1 }
        if record.outcome == "failed" { failed += 1 }
        costUSD += record.costUSD
        costSquares += record.costUSD * record.costUSD
        guard record.isLatencyEligible else { return }
        answered += 1
        latencySum += record.latencyMs
        latencySquares += record.latencyMs * record.latencyMs
        if keepLatencies { latencies.append(record.latencyMs) }
        if let ttft = record.ttftMs {
            ttftCount += 1
            ttftSum += ttft
            ttftSquares += ttft * ttft
        }
    }

    /// Every install of `records`, by install id.
    static func byInstall(_ records: [FieldEventRecord], keepLatencies: Bool) -> [String: InstallTotals] {
        var totals: [String: InstallTotals] = [:]
        for record in records {
            totals[record.installID, default: InstallTotals()].add(record, keepLatencies: keepLatencies)
        }
        return totals
    }
}

extension FieldEventRecord {
    /// Latency describes the model: answered and not from the router's cache.
    var isLatencyEligible: Bool {
        !cacheHit && outcome != "failed" && outcome != "declined"
    }
}
