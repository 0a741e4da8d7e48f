import Foundation
import HybridTransport

extension TransportConformance {
    func keepAliveReuse(_ transport: any HTTPTransport) async throws {
        let check = TransportConformanceCheck.keepAliveReuse
        let server = try LoopbackHTTPServer { request in .json(#"{"path":"\#(request.path)"}"#) }
        defer { server.stop() }
        for index in 0..<20 {
            let (response, body) = try await transport.send(Self.request(server.baseURL + "/ping/\(index)"))
            try Self.expect(response.status == 200 && body == Data(#"{"path":"/ping/\#(index)"}"#.utf8), check, "request \(index) failed")
        }
        try Self.expect(server.requestCount == 20, check, "\(server.requestCount) requests arrived")
        try Self.expect(server.connectionsAccepted <= 2, check, "20 sequential requests opened \(server.connectionsAccepted) connections")
    }

    func concurrentRequests(_ transport: any HTTPTransport) async throws {
        let check = TransportConformanceCheck.concurrentRequests
        let server = try LoopbackHTTPServer.synchronous(recordRequests: false) { request in .text("body of \(request.path)") }
        defer { server.stop() }
        // Limits far above what 200 requests need on an idle machine: this check is about every request completing
        // with its own body; a loaded machine must not turn queueing for a connection into a timeout.
        let timeouts = HTTPTimeouts(connect: .seconds(60), firstByte: nil, total: .seconds(120))
        let results = try await withThrowingTaskGroup(of: (Int, Int, String).self) { group in
            for index in 0..<200 {
                group.addTask {
                    let (response, body) = try await transport.send(Self.request(server.baseURL + "/item/\(index)", timeouts: timeouts))
                    return (index, response.status, String(decoding: body, as: UTF8.self))
                }
            }
            var all: [(Int, Int, String)] = []
            for try await result in group { all.append(result) }
            return all
        }
        try Self.expect(results.count == 200, check, "\(results.count) of 200 requests completed")
        for (index, status, body) in results {
            try Self.expect(status == 200 && body == "body of /item/\(index)", check, "request \(index): \(status) \(body)")
        }
        try Self.expect(server.requestCount == 200, check, "the server saw \(server.requestCount) requests")
    }
}
