import Synchronization

#if OTLP
import Logging
#endif

/// What swift-otel's background export could not do, counted from the warnings it logs: spans dropped at a full
/// queue, batches (spans and metrics) that failed to send, the first failure's text; and a shutdown that timed out.
/// The first failure is also said once, as a warning through the app's swift-log; the rest is only counted.
final class ExportDiagnostics: Sendable {
    private struct Counts {
        var droppedSpans = 0
        var failedBatches = 0
        var unsentSpans = 0
        var firstFailure: String?
        var shutdownTimedOut = false
    }

    let endpoint: String
    private let counts = Mutex(Counts())

    init(endpoint: String) {
        self.endpoint = endpoint
    }

    /// Counts one warning of swift-otel's: a full queue's drops, or a failed export and the spans in its batch.
    func record(message: String, metadata: [String: String], error: String? = nil) {
        let first: String? = counts.withLock { counts in
            if message.contains("dropped") {
                counts.droppedSpans += Int(metadata["dropped_count"] ?? "") ?? 1
            } else if message.contains("Failed to export") || message.contains("flush failed") {
                counts.failedBatches += 1
                counts.unsentSpans += message.contains("metrics") ? 0 : Int(metadata["batch_size"] ?? "") ?? 0
            } else {
                return nil
            }
            guard counts.firstFailure == nil else { return nil }
            // "Failed to export batch." and its cause (swift-log hands the error apart from the message).
            let what = message.hasSuffix(".") ? String(message.dropLast()) : message
            let reason = (error ?? metadata["error"]).map { "\(what): \($0)" } ?? what
            counts.firstFailure = reason
            return reason
        }
        if let first { warnOnce(first) }
    }

    /// Shutdown stopped waiting: said in the report only (the caller is reading it).
    func timedOut() {
        counts.withLock { $0.shutdownTimedOut = true }
    }

    func report() -> OTLPExportReport {
        counts.withLock { counts in
            OTLPExportReport(
                endpoint: endpoint, droppedSpans: counts.droppedSpans, failedBatches: counts.failedBatches,
                unsentSpans: counts.unsentSpans, firstFailure: counts.firstFailure, shutdownTimedOut: counts.shutdownTimedOut)
        }
    }

    private func warnOnce(_ reason: String) {
        #if OTLP
        Logger(label: "HybridOTLP").warning(
            "OTLP export to \(endpoint) is failing (\(reason)); requests are unaffected; later failures are counted, and OTLPExport.shutdown() reports them")
        #endif
    }
}

#if OTLP
/// The log handler swift-otel's diagnostic logger writes to: warnings and errors go to the counts, nothing is printed.
struct DiagnosticsLogHandler: LogHandler {
    let diagnostics: ExportDiagnostics
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .warning

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        guard event.level >= .warning else { return }
        var merged = self.metadata
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        diagnostics.record(message: "\(event.message)", metadata: merged.mapValues { "\($0)" }, error: event.error.map { "\($0)" })
    }
}
#endif
