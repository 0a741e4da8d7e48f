import HybridOTLP
import Testing

/// What `OTLPExport.bootstrap` refuses before it touches the process's tracer: a malformed endpoint, named; and,
/// in a build without the `OTLP` trait (the default), any endpoint, with how to turn the trait on.
@Suite struct OTLPExportTests {
    @Test("a malformed endpoint is an error naming it", arguments: [
        "127.0.0.1:4318", "ftp://collector:4318", "http://", "http://collector:4318/v1/traces?x=1", "not a url", "",
    ])
    func malformedEndpoint(_ endpoint: String) {
        #expect {
            _ = try OTLPExport.bootstrap(endpoint: endpoint, serviceName: "tests")
        } throws: { error in
            let description = "\(error)"
            return description.contains("malformed OTLP endpoint \"\(endpoint)\"") && description.contains("http://127.0.0.1:4318")
        }
    }

    #if !OTLP
    @Test("without the OTLP trait, bootstrap says how to turn it on instead of exporting nothing")
    func traitOff() {
        #expect {
            _ = try OTLPExport.bootstrap(endpoint: "http://127.0.0.1:4318", serviceName: "tests")
        } throws: { error in
            "\(error)".contains("traits: [\"OTLP\"]") && "\(error)".contains("make otlp")
                && "\(error)".contains("hybrid-otlp")
        }
    }

    @Test("a signal's own URL (Phoenix prints …/v1/traces) is taken as its base, not refused as malformed")
    func signalURL() {
        #expect {
            _ = try OTLPExport.bootstrap(endpoint: "http://127.0.0.1:6006/v1/traces", serviceName: "tests")
        } throws: { error in
            !"\(error)".contains("malformed")
        }
    }
    #endif
}
