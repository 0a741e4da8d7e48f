import Foundation
import HybridTransport

extension TransportConformance {
    func connectTimeout(_ transport: any HTTPTransport) async throws {
        let check = TransportConformanceCheck.connectTimeout
        // Filling the accept queue sleeps; keep that off the cooperative pool.
        let listener = try await BlockingWork.run { FullBacklogListener() }
        let url = "http://127.0.0.1:\(listener.port)/unreachable"
        let timeouts = HTTPTimeouts(connect: .milliseconds(400), firstByte: nil, total: .seconds(30))
        let started = ContinuousClock.now
        let error = try await Self.transportError(check) { _ = try await transport.execute(Self.request(url, timeouts: timeouts)) }
        let elapsed = ContinuousClock.now - started
        try Self.expect(error == .timedOut(url: url, phase: .connect, after: .milliseconds(400)), check,
                        "expected .timedOut(connect), got \(String(describing: error))")
        try Self.expect(elapsed < .seconds(10), check, "the connect limit fired after \(elapsed)")
        withExtendedLifetime(listener) {}
    }

    func firstByteTimeout(_ transport: any HTTPTransport) async throws {
        let check = TransportConformanceCheck.firstByteTimeout
        let server = try LoopbackHTTPServer { _ in ScriptedResponse(parts: [.text("late")], headDelay: .seconds(30)) }
        defer { server.stop() }
        let url = server.baseURL + "/slow"
        let timeouts = HTTPTimeouts(connect: .seconds(10), firstByte: .milliseconds(300), total: .seconds(60))
        let error = try await Self.transportError(check) { _ = try await transport.execute(Self.request(url, timeouts: timeouts)) }
        try Self.expect(error == .timedOut(url: url, phase: .firstByte, after: .milliseconds(300)), check,
                        "expected .timedOut(firstByte), got \(String(describing: error))")
        try Self.expect(await server.waitUntil { $0.abortedResponses == 1 }, check, "the client did not hang up")
    }

    func totalTimeout(_ transport: any HTTPTransport) async throws {
        let check = TransportConformanceCheck.totalTimeout
        // A synchronous handler answers from the connection thread: the head is not delayed by a busy task pool.
        let server = try LoopbackHTTPServer.synchronous { _ in
            ScriptedResponse(parts: [.text("partial"), .delay(.seconds(30)), .text("never")], framing: .chunked)
        }
        defer { server.stop() }
        let url = server.baseURL + "/stall"
        let limit = Duration.milliseconds(1500)
        let timeouts = HTTPTimeouts(connect: .seconds(10), firstByte: nil, total: limit)
        var received = Data()
        let error = try await Self.transportError(check) {
            let response = try await transport.execute(Self.request(url, timeouts: timeouts))
            for try await chunk in response.body { received.append(chunk) }
        }
        try Self.expect(error == .timedOut(url: url, phase: .total, after: limit), check,
                        "expected .timedOut(total), got \(String(describing: error))")
        // On a loaded machine the head may not beat the limit; when it did, the partial body came first.
        try Self.expect(received.isEmpty || received == Data("partial".utf8), check, "received \(received.count) bytes")
        try Self.expect(await server.waitUntil { $0.abortedResponses == 1 }, check, "the client did not hang up")
    }
}
