/// A running span export, as `--otlp-endpoint` needs it.
package protocol SpanExport: Sendable {
    /// Where spans go, as said when they were sent.
    var endpoint: String { get }
    /// Sends what is queued and stops; nil when everything went, else what could not be sent.
    func finish() async -> String?
}

/// What `--otlp-endpoint` starts: set by `hybrid-otlp` around the command, nil in `hybrid`.
package enum SpanExporters {
    /// Starts the process's exporter for an endpoint and a service name; throws for a malformed endpoint.
    @TaskLocal package static var start: (@Sendable (String, String) throws -> any SpanExport)?
}
