/// Why ``OTLPExport/bootstrap(endpoint:serviceName:metrics:)`` could not start exporting, said so the caller can act.
public struct OTLPExportError: Error, Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        case malformedEndpoint(String)
        case traitOff
        case backend(endpoint: String, message: String)
    }

    let kind: Kind

    init(_ kind: Kind) {
        self.kind = kind
    }

    /// What went wrong and what to do.
    public var description: String {
        switch kind {
        case .malformedEndpoint(let endpoint):
            return "malformed OTLP endpoint \"\(endpoint)\": give the collector's http(s) base URL with a host and no query, "
                + "e.g. http://127.0.0.1:4318 (/v1/traces and /v1/metrics are appended)"
        case .traitOff:
            return "OTLP export was not built: HybridAI's `OTLP` package trait is off. Depend on HybridAI with "
                + "traits: [\"OTLP\"] (for the hybrid CLI, `make otlp` builds .build/debug/hybrid-otlp, which has it)"
        case .backend(let endpoint, let message):
            return "could not start OTLP export to \(endpoint): \(message)"
        }
    }
}
