/// What an ``OTLPExport`` could not send, returned by ``OTLPExport/shutdown(timeout:)``.
public struct OTLPExportReport: Sendable, Hashable, CustomStringConvertible {
    /// The base URL the export sent to.
    var endpoint: String
    /// Spans dropped because the queue was full (the endpoint slower than the app's traffic).
    public var droppedSpans: Int
    /// Export batches (of spans or of metrics) that failed: refused, unreachable or timed out.
    public var failedBatches: Int
    /// Spans in the failed batches.
    var unsentSpans: Int
    /// The first failure, as swift-otel said it (an HTTP status, a connection error).
    var firstFailure: String?
    /// Whether shutdown stopped waiting for the last batches.
    var shutdownTimedOut: Bool

    /// Whether everything was sent.
    public var isClean: Bool { droppedSpans == 0 && failedBatches == 0 && !shutdownTimedOut }

    /// One line: everything sent, or what was lost and the first reason.
    public var description: String {
        guard !isClean else { return "OTLP export to \(endpoint): everything sent" }
        var parts: [String] = []
        if droppedSpans > 0 { parts.append("\(Self.count(droppedSpans, "span")) dropped at a full queue") }
        if failedBatches > 0 {
            let spans = unsentSpans > 0 ? " (\(Self.count(unsentSpans, "span")))" : ""
            parts.append("\(Self.count(failedBatches, "batch", plural: "batches")) failed\(spans)")
        }
        if shutdownTimedOut { parts.append("shutdown stopped waiting with data unsent") }
        let reason = firstFailure.map { "; first failure: \($0)" } ?? ""
        return "OTLP export to \(endpoint): " + parts.joined(separator: ", ") + reason
    }

    private static func count(_ n: Int, _ singular: String, plural: String? = nil) -> String {
        "\(n) \(n == 1 ? singular : plural ?? singular + "s")"
    }
}
