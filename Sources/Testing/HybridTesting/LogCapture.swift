public import Logging
import Synchronization

/// Collects every log line a model emits (at trace level, metadata included) so tests can search them for keys.
public final class LogCapture: Sendable {
    private let storage = Mutex<[String]>([])

    /// An empty capture.
    public init() {}

    /// Every line so far, rendered as `level message metadata`.
    public var lines: [String] { storage.withLock { $0 } }

    /// A logger whose lines land here.
    public var logger: Logger {
        Logger(label: "hybrid.tests.capture") { _ in CapturingLogHandler(capture: self) }
    }

    fileprivate func append(_ line: String) {
        storage.withLock { $0.append(line) }
    }
}

private struct CapturingLogHandler: LogHandler {
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        capture.append("\(event.level) \(event.message) \(merged)")
    }
}
