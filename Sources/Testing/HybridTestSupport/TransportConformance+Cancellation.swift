import Foundation
import HybridTransport

extension TransportConformance {
    func cancelBeforeHead(_ transport: any HTTPTransport) async throws {
        let check = TransportConformanceCheck.cancelBeforeHead
        let server = try LoopbackHTTPServer { request in
            request.path == "/hang" ? ScriptedResponse(parts: [.text("x")], headDelay: .seconds(60)) : .text("fine")
        }
        defer { server.stop() }
        let url = server.baseURL + "/hang"
        let task = Task { try await Self.transportError(check) { _ = try await transport.execute(Self.request(url)) } }
        try Self.expect(await server.waitUntil { $0.requestCount == 1 }, check, "the request never reached the server")
        task.cancel()
        let error = try await task.value
        try Self.expect(error == .cancelled(url: url), check, "expected .cancelled, got \(String(describing: error))")
        try Self.expect(await server.waitUntil { $0.abortedResponses == 1 }, check, "the connection stayed open")
        // The transport keeps serving after a cancelled transfer.
        let (_, body) = try await transport.send(Self.request(server.baseURL + "/after"))
        try Self.expect(body == Data("fine".utf8), check, "the next request got \(String(decoding: body, as: UTF8.self))")
    }

    func cancelMidBody(_ transport: any HTTPTransport) async throws {
        let check = TransportConformanceCheck.cancelMidBody
        let never = ServerSignal()
        let server = try LoopbackHTTPServer { _ in
            ScriptedResponse(parts: [.text("first"), .waitFor(never), .text("second")], framing: .chunked)
        }
        defer { server.stop() }
        let url = server.baseURL + "/endless"
        let (progress, progressSink) = AsyncStream<Data>.makeStream()
        let task = Task {
            try await Self.transportError(check) {
                let response = try await transport.execute(Self.request(url))
                for try await chunk in response.body { progressSink.yield(chunk) }
            }
        }
        var events = progress.makeAsyncIterator()
        let first = await events.next()
        try Self.expect(first == Data("first".utf8), check, "the first chunk did not arrive")
        task.cancel()
        let error = try await task.value
        try Self.expect(error == .cancelled(url: url), check, "expected .cancelled, got \(String(describing: error))")
        try Self.expect(await server.waitUntil { $0.abortedResponses == 1 }, check, "the connection stayed open")
        try Self.expect(!never.isFired, check, "the server was released")
    }

    func cancelBetweenChunks(_ transport: any HTTPTransport) async throws {
        let check = TransportConformanceCheck.cancelBetweenChunks
        let never = ServerSignal()
        let server = try LoopbackHTTPServer { _ in
            ScriptedResponse(parts: [.text("first"), .waitFor(never), .text("second")], framing: .chunked)
        }
        defer { server.stop() }
        let url = server.baseURL + "/between"
        let task = Task {
            try await Self.transportError(check) {
                let response = try await transport.execute(Self.request(url))
                var iterator = response.body.makeAsyncIterator()
                _ = try await iterator.next()
                // Cancelled after one chunk and before asking for the next: the next call must throw.
                withUnsafeCurrentTask { $0?.cancel() }
                _ = try await iterator.next()
            }
        }
        let error = try await task.value
        try Self.expect(error == .cancelled(url: url), check, "expected .cancelled, got \(String(describing: error))")
        try Self.expect(await server.waitUntil { $0.abortedResponses == 1 }, check, "the connection stayed open")
    }

    func droppedBodyCancels(_ transport: any HTTPTransport) async throws {
        let check = TransportConformanceCheck.droppedBodyCancels
        let never = ServerSignal()
        let server = try LoopbackHTTPServer { _ in
            ScriptedResponse(parts: [.text("first"), .waitFor(never)], framing: .chunked)
        }
        defer { server.stop() }
        do {
            let response = try await transport.execute(Self.request(server.baseURL + "/dropped"))
            try Self.expect(response.status == 200, check, "status \(response.status)")
        }
        try Self.expect(await server.waitUntil { $0.abortedResponses == 1 }, check, "dropping the body left the connection open")
    }
}
