import HybridTransport
import Logging

/// A provider's wire format with its codec's type hidden: what an `HTTPModelConfiguration` hands
/// `HTTPLanguageModel`, so that the generic model can be public while every codec stays internal. Only this module
/// makes one.
public struct HTTPWireFormat: Sendable {
    /// Starts one model's engine. The codec's type is known only inside this closure, where the compiler
    /// specializes the engine for it; an existential over a generic engine would run its per-chunk loop unspecialized.
    let makeEngine: @Sendable (
        _ transport: any HTTPTransport, _ environment: @escaping @Sendable (String) -> String?, _ logger: Logger
    ) -> HTTPModelOperations

    init<Wire: WireFormat>(_ wire: Wire) {
        makeEngine = { transport, environment, logger in
            HTTPModelOperations(HTTPModelEngine(wire: wire, transport: transport, environment: environment, logger: logger))
        }
    }
}
