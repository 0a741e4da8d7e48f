import Foundation
import Synchronization

#if OTLP
import Logging
import OTel
import ServiceLifecycle
#endif

/// Sends the process's spans and metrics (the router's, the harness's and any other swift-distributed-tracing or
/// swift-metrics user's) to an OpenTelemetry collector or backend over OTLP/HTTP with protobuf bodies, through
/// swift-otel.
///
/// One call at launch, before the first request, and one at exit:
///
/// ```swift
/// let otlp = try OTLPExport.bootstrap(endpoint: "http://127.0.0.1:4318", serviceName: "notes-app")
/// // … the app's requests …
/// let report = await otlp.shutdown()   // sends what is queued; says what could not be sent
/// ```
///
/// Exporting happens off every request's path: finished spans go to a bounded queue (2,048 spans) that a background
/// task sends in batches, so an unreachable or slow endpoint never slows or fails a request; what it cost is counted
/// (spans dropped at a full queue, batches that failed) and said once, in a warning through swift-log at the first
/// failure and in the ``OTLPExportReport`` that ``shutdown(timeout:)`` returns.
///
/// Built only with the package trait `OTLP` (`.package(url: …, from: …, traits: ["OTLP"])`), so an app that does not
/// ask for it never builds swift-otel, its HTTP client or protobuf; without it ``bootstrap(endpoint:serviceName:metrics:)``
/// throws an error that says so.
public final class OTLPExport: Sendable {
    /// The base URL spans and metrics go to (`/v1/traces` and `/v1/metrics` are appended).
    public let endpoint: String
    private let diagnostics: ExportDiagnostics
    private let stopping: Mutex<Bool> = Mutex(false)
    #if OTLP
    private let group: ServiceGroup
    private let running: Task<Void, Never>
    #endif

    #if OTLP
    private init(endpoint: String, diagnostics: ExportDiagnostics, group: ServiceGroup) {
        self.endpoint = endpoint
        self.diagnostics = diagnostics
        self.group = group
        self.running = Task.detached { try? await group.run() }
    }
    #else
    private init(endpoint: String, diagnostics: ExportDiagnostics) {
        self.endpoint = endpoint
        self.diagnostics = diagnostics
    }
    #endif

    /// Installs swift-otel's tracer (and, with `metrics`, its metrics factory) as the process's, and starts sending.
    ///
    /// Call it once per process: swift-distributed-tracing and swift-metrics take one bootstrap each, and a second
    /// one stops the process (their rule, not HybridAI's).
    ///
    /// - Parameters:
    ///   - endpoint: The collector's OTLP/HTTP base URL, e.g. `http://127.0.0.1:4318` (a collector) or
    ///     `http://127.0.0.1:6006` (Arize Phoenix); `http` or `https` with a host. A URL ending in `/v1/traces` is
    ///     taken as its base.
    ///   - serviceName: The resource's `service.name`, also its `openinference.project.name` (the project Phoenix
    ///     files the spans under).
    ///   - metrics: Also export metrics (`/v1/metrics`). Off for a backend that takes only traces, such as Phoenix,
    ///     which would refuse every metrics batch.
    /// - Throws: ``OTLPExportError`` for a malformed endpoint, or when HybridAI was built without its `OTLP` trait.
    public static func bootstrap(endpoint: String, serviceName: String, metrics: Bool = true) throws(OTLPExportError) -> OTLPExport {
        #if OTLP
        let base = try validated(endpoint)
        let diagnostics = ExportDiagnostics(endpoint: base)
        let configuration = configuration(base: base, serviceName: serviceName, metrics: metrics, diagnostics: diagnostics)
        do {
            let service = try OTel.bootstrap(configuration: configuration)
            let group = ServiceGroup(services: [service], gracefulShutdownSignals: [], logger: Logger(label: "HybridOTLP"))
            return OTLPExport(endpoint: base, diagnostics: diagnostics, group: group)
        } catch {
            throw OTLPExportError(.backend(endpoint: base, message: String(describing: error)))
        }
        #else
        _ = try validated(endpoint)
        throw OTLPExportError(.traitOff)
        #endif
    }

    /// Sends what is still queued and stops exporting; waits at most `timeout` (a failing endpoint, which swift-otel
    /// retries with back-off, takes all of it), then returns what could not be sent. Later calls return the same
    /// report at once.
    public func shutdown(timeout: Duration = .seconds(5)) async -> OTLPExportReport {
        #if OTLP
        let first = stopping.withLock { stopping in
            defer { stopping = true }
            return !stopping
        }
        if first {
            await group.triggerGracefulShutdown()
            // Past the bound the run is cancelled (swift-otel's exporter retries a failing endpoint with back-off).
            let running = self.running
            let diagnostics = self.diagnostics
            let bound = Task {
                try await Task.sleep(for: timeout)
                diagnostics.timedOut()
                running.cancel()
            }
            await running.value
            bound.cancel()
        }
        #endif
        return diagnostics.report()
    }

    /// The endpoint without a trailing slash, or the error naming it.
    static func validated(_ endpoint: String) throws(OTLPExportError) -> String {
        var trimmed = endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint
        // The signal's own URL (Phoenix prints http://…/v1/traces): its base is meant.
        for signal in ["/v1/traces", "/v1/metrics"] where trimmed.hasSuffix(signal) { trimmed.removeLast(signal.count) }
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil
        else {
            throw OTLPExportError(.malformedEndpoint(endpoint))
        }
        return trimmed
    }

    #if OTLP
    /// swift-otel's configuration: OTLP/HTTP with protobuf bodies, traces always, metrics when asked, no logs (the
    /// app's logging stays the app's), swift-otel's own warnings counted by `diagnostics` instead of printed.
    private static func configuration(
        base: String, serviceName: String, metrics: Bool, diagnostics: ExportDiagnostics
    ) -> OTel.Configuration {
        var configuration = OTel.Configuration.default
        configuration.serviceName = serviceName
        configuration.resourceAttributes["openinference.project.name"] = serviceName
        configuration.diagnosticLogger = .custom(Logger(label: "HybridOTLP.diagnostics") { _ in DiagnosticsLogHandler(diagnostics: diagnostics) })
        configuration.diagnosticLogLevel = .warning
        configuration.logs.enabled = false
        configuration.traces.otlpExporter = exporter(base + "/v1/traces")
        configuration.traces.batchSpanProcessor.exportTimeout = .seconds(5)
        configuration.metrics.enabled = metrics
        configuration.metrics.otlpExporter = exporter(base + "/v1/metrics")
        configuration.metrics.exportTimeout = .seconds(5)
        // The GenAI conventions' bucket boundaries for its two histograms.
        configuration.metrics.durationHistogramBuckets["gen_ai.client.operation.duration"] =
            [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92].map { .seconds($0) }
        configuration.metrics.valueHistogramBuckets["gen_ai.client.token.usage"] =
            (0..<14).map { Double(1 << (2 * $0)) }
        return configuration
    }

    private static func exporter(_ url: String) -> OTel.Configuration.OTLPExporterConfiguration {
        var exporter = OTel.Configuration.OTLPExporterConfiguration.default
        exporter.endpoint = url
        exporter.protocol = .httpProtobuf
        exporter.timeout = .seconds(5)
        return exporter
    }
    #endif
}
