import Foundation
import HybridCurl
import HybridTestSupport
import HybridTransport
import Testing

// The one transport conformance suite (`TransportConformance` in HybridTestSupport), run for every transport the
// package ships, against the loopback server. `.serialized`: several checks observe timing (a slow stream, the three
// limits), and 18 of them at once on a 2-core machine would measure the machine instead of the transport.

@Suite("Transport conformance: CurlTransport", .serialized)
struct CurlTransportConformanceTests {
    @Test(arguments: TransportConformanceCheck.allCases)
    func conforms(_ check: TransportConformanceCheck) async throws {
        try await TransportConformance { CurlTransport() }.run(check)
    }
}

@Suite("Transport conformance: URLSessionTransport", .serialized)
struct URLSessionTransportConformanceTests {
    @Test(arguments: TransportConformanceCheck.allCases)
    func conforms(_ check: TransportConformanceCheck) async throws {
        try await TransportConformance { URLSessionTransport() }.run(check)
    }
}
