import Foundation
import HybridTransport

extension TransportConformance {
    func bodyOverLimit(_ transport: any HTTPTransport) async throws {
        let check = TransportConformanceCheck.bodyOverLimit
        let piece = Data(repeating: 1, count: 300)
        let server = try LoopbackHTTPServer { request in
            switch request.path {
            case "/declared": .data(Data(repeating: 7, count: 5000))
            case "/growing": ScriptedResponse(parts: Array(repeating: .bytes(piece), count: 10), framing: .chunked)
            default: ScriptedResponse(parts: [.bytes(piece), .bytes(Data(repeating: 2, count: 700))], framing: .chunked)
            }
        }
        defer { server.stop() }
        let declared = server.baseURL + "/declared"
        let early = try await Self.transportError(check) { _ = try await transport.execute(Self.request(declared, maxBodyBytes: 1000)) }
        try Self.expect(early == .bodyTooLarge(url: declared, limit: 1000), check,
                        "a Content-Length over the limit gave \(String(describing: early))")

        let growing = server.baseURL + "/growing"
        var received = 0
        let late = try await Self.transportError(check) {
            let response = try await transport.execute(Self.request(growing, maxBodyBytes: 1000))
            for try await chunk in response.body { received += chunk.count }
        }
        try Self.expect(late == .bodyTooLarge(url: growing, limit: 1000), check,
                        "a chunked body over the limit gave \(String(describing: late))")
        try Self.expect(received <= 1000, check, "\(received) bytes were delivered past the limit of 1000")

        let (_, exact) = try await transport.send(Self.request(server.baseURL + "/exact", maxBodyBytes: 1000))
        try Self.expect(exact.count == 1000, check, "a body exactly at the limit arrived as \(exact.count) bytes")
    }

    func serverClosesMidBody(_ transport: any HTTPTransport) async throws {
        let check = TransportConformanceCheck.serverClosesMidBody
        let server = try LoopbackHTTPServer { request in
            request.path == "/short"
                ? ScriptedResponse(headers: [("Content-Length", "100")], parts: [.text("only this"), .closeConnection])
                : ScriptedResponse(parts: [.text("data: one\n\n"), .delay(.milliseconds(50)), .closeConnection], framing: .chunked)
        }
        defer { server.stop() }
        for path in ["/short", "/cut-stream"] {
            let url = server.baseURL + path
            var received = Data()
            let error = try await Self.transportError(check) {
                let response = try await transport.execute(Self.request(url))
                for try await chunk in response.body { received.append(chunk) }
            }
            guard case .failed(let reported, _) = error, reported == url else {
                throw TransportConformanceFailure(check, "\(path): expected .failed(\(url)), got \(String(describing: error))")
            }
            if path == "/cut-stream" {
                try Self.expect(received == Data("data: one\n\n".utf8), check, "the chunk before the cut was lost")
            }
        }
    }

    func refusedConnectionRedacted(_ transport: any HTTPTransport) async throws {
        let check = TransportConformanceCheck.refusedConnectionRedacted
        let port = SocketFixtures.closedPort()
        let url = "http://127.0.0.1:\(port)/v1/models?key=SECRET-KEY"
        let error = try await Self.transportError(check) { _ = try await transport.execute(Self.request(url)) }
        guard case .connectionFailed(let reported, _) = error else {
            throw TransportConformanceFailure(check, "expected .connectionFailed, got \(String(describing: error))")
        }
        try Self.expect(reported == "http://127.0.0.1:\(port)/v1/models", check, "the URL was reported as \(reported)")
        try Self.expect(!String(describing: error!).contains("SECRET"), check, "the error text carries the key")
    }

    func nonHTTPURLRejected(_ transport: any HTTPTransport) async throws {
        let check = TransportConformanceCheck.nonHTTPURLRejected
        let error = try await Self.transportError(check) { _ = try await transport.execute(Self.request("ftp://127.0.0.1/file?key=x")) }
        try Self.expect(error == .invalidURL("ftp://127.0.0.1/file"), check, "expected .invalidURL, got \(String(describing: error))")
    }
}
