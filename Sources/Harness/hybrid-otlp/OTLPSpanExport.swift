import HybridCommands
import HybridOTLP

/// `--otlp-endpoint` through `OTLPExport`: the process's tracer exports over OTLP/HTTP until the command ends.
struct OTLPSpanExport: SpanExport {
    let export: OTLPExport

    var endpoint: String { export.endpoint }

    /// The CLI's commands export spans only: metrics are an app's (per process, not per run).
    @Sendable static func start(endpoint: String, serviceName: String) throws -> any SpanExport {
        OTLPSpanExport(export: try OTLPExport.bootstrap(endpoint: endpoint, serviceName: serviceName, metrics: false))
    }

    func finish() async -> String? {
        let report = await export.shutdown()
        return report.isClean ? nil : "\(report)"
    }
}
