import ArgumentParser
import Foundation

/// `--otlp-endpoint` and `--otlp-service`: the command's spans (an eval's run and samples, `ask --feature`'s routed
/// request) sent over OTLP/HTTP while it runs, and what could not be sent said at the end.
struct OTLPOptions: ParsableArguments {
    @Option(help: "Send this command's spans (OpenTelemetry GenAI conventions) to an OTLP/HTTP endpoint: a collector's http://127.0.0.1:4318, Phoenix's http://127.0.0.1:6006. Works in hybrid-otlp, the same CLI with the exporter (make otlp builds .build/debug/hybrid-otlp).")
    var otlpEndpoint: String?

    @Option(help: "With --otlp-endpoint: the spans' service.name, which Phoenix files them under as the project; give your app's to see them beside its traffic.")
    var otlpService: String = "hybrid"

    /// Runs `body` with the exporter installed (when asked), then sends what is queued, whether `body` threw or not.
    func exporting(_ body: () async throws -> Void) async throws {
        let export = try start()
        do {
            try await body()
        } catch {
            await finish(export)
            throw error
        }
        await finish(export)
    }

    /// The process's tracer exports from here on; a malformed endpoint (or a `hybrid` without the exporter) is a
    /// usage error before anything runs.
    private func start() throws -> (any SpanExport)? {
        guard let otlpEndpoint else { return nil }
        guard let start = SpanExporters.start else {
            CLIOutput.error(
                "error: --otlp-endpoint needs hybrid-otlp: this hybrid leaves the OTLP exporter out (swift-otel, its "
                    + "HTTP client and TLS: minutes more of every first build). `make otlp` builds .build/debug/hybrid-otlp; "
                    + "run the same command with it")
            throw ExitCode.validationFailure
        }
        do {
            return try start(otlpEndpoint, otlpService)
        } catch {
            CLIOutput.error("error: --otlp-endpoint: \(error)")
            throw ExitCode.validationFailure
        }
    }

    /// Sends the spans still queued; what could not be sent is a warning, never a failure (results are stored).
    private func finish(_ export: (any SpanExport)?) async {
        guard let export else { return }
        if let unsent = await export.finish() {
            CLIOutput.error("warning: \(unsent)")
        } else {
            CLIOutput.error("spans sent to \(export.endpoint) as service \(otlpService) (Phoenix's project)")
        }
    }
}
