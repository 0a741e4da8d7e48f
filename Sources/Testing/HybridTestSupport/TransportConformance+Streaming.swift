import Foundation
import HybridTransport

extension TransportConformance {
    func headBeforeBody(_ transport: any HTTPTransport) async throws {
        let check = TransportConformanceCheck.headBeforeBody
        let release = ServerSignal()
        let server = try LoopbackHTTPServer { _ in
            ScriptedResponse(headers: [("X-Head", "early")], parts: [.waitFor(release), .text("body")], framing: .chunked)
        }
        defer { server.stop() }
        let response = try await transport.execute(Self.request(server.baseURL + "/head-first"))
        // The server cannot send the body before the signal fires, so the head arrived on its own.
        try Self.expect(!release.isFired && response.status == 200, check, "execute waited for the body")
        try Self.expect(response.headers["x-head"] == "early", check, "header X-Head missing: \(response.headers.fields)")
        release.fire()
        let body = try await Self.collect(response.body)
        try Self.expect(body == Data("body".utf8), check, "body was \(String(decoding: body, as: UTF8.self))")
    }

    func chunksInOrderAsSent(_ transport: any HTTPTransport) async throws {
        let check = TransportConformanceCheck.chunksInOrderAsSent
        let events = (0..<4).map { "data: event \($0)\n\n" }
        let signals = events.dropLast().map { _ in ServerSignal() }
        let server = try LoopbackHTTPServer { _ in
            var response = ScriptedResponse.sse(events: [events[0]])
            for (signal, event) in zip(signals, events.dropFirst()) {
                response.parts += [.waitFor(signal), .text(event)]
            }
            return response
        }
        defer { server.stop() }
        let response = try await transport.execute(Self.request(server.baseURL + "/stream"))
        var iterator = response.body.makeAsyncIterator()
        for (index, event) in events.enumerated() {
            let chunk = try await iterator.next()
            try Self.expect(chunk == Data(event.utf8), check, "chunk \(index) was \(chunk.map { String(decoding: $0, as: UTF8.self) } ?? "the end")")
            if index < signals.count {
                // Chunk `index` is here although the server still holds the next one back: nothing was buffered.
                try Self.expect(!signals[index].isFired, check, "chunk \(index) arrived only after the next was released")
                signals[index].fire()
            }
        }
        let end = try await iterator.next()
        try Self.expect(end == nil, check, "expected the end of the body, got \(end?.count ?? 0) more bytes")
    }

    func slowStreamTiming(_ transport: any HTTPTransport) async throws {
        let check = TransportConformanceCheck.slowStreamTiming
        let events = (0..<5).map { "data: \($0)\n\n" }
        let server = try LoopbackHTTPServer.synchronous { _ in .sse(events: events, delay: .milliseconds(100)) }
        defer { server.stop() }
        let response = try await transport.execute(Self.request(server.baseURL + "/slow"))
        var text = ""
        var arrivals: [ContinuousClock.Instant] = []
        for try await chunk in response.body {
            arrivals.append(.now)
            text += String(decoding: chunk, as: UTF8.self)
        }
        try Self.expect(text == events.joined(), check, "the stream arrived as \(text.debugDescription)")
        // 400 ms separate the first event from the last on the wire; a buffering transport delivers them together.
        // Half of that leaves room for a loaded machine that reads late.
        let spread = (arrivals.last ?? .now) - (arrivals.first ?? .now)
        try Self.expect(arrivals.count >= 3 && spread >= .milliseconds(200), check,
                        "\(arrivals.count) chunks within \(spread): the stream was buffered")
    }

    func requestRoundTrip(_ transport: any HTTPTransport) async throws {
        let check = TransportConformanceCheck.requestRoundTrip
        let server = try LoopbackHTTPServer { request in
            request.path == "/old"
                ? ScriptedResponse(status: 302, headers: [("Location", "/new")])
                : .text("\(request.method) \(request.body.count)", headers: [("X-Echo", request.header("x-custom") ?? "missing")])
        }
        defer { server.stop() }
        let payload = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) } + [0, 13, 10])
        let headers: HTTPHeaders = ["X-Custom": "abc 123", "Authorization": "Bearer test-token", "Content-Type": "application/octet-stream"]
        let url = server.baseURL + "/v1/upload?key=abc&alt=sse"
        let (response, body) = try await transport.send(Self.request(url, method: "POST", headers: headers, body: payload))
        try Self.expect(body == Data("POST \(payload.count)".utf8), check, "server answered \(String(decoding: body, as: UTF8.self))")
        try Self.expect(response.headers["X-ECHO"] == "abc 123", check, "header lookup ignoring case failed: \(response.headers.fields)")
        let received = server.requests.first
        try Self.expect(received?.body == payload, check, "the POST body did not arrive byte-exact")
        try Self.expect(received?.header("authorization") == "Bearer test-token", check, "Authorization header not sent")
        try Self.expect(received?.path == "/v1/upload?key=abc&alt=sse", check, "path sent as \(received?.path ?? "nothing")")
        let (redirect, _) = try await transport.send(Self.request(server.baseURL + "/old"))
        try Self.expect(redirect.status == 302 && server.requests.last?.path == "/old", check, "a redirect was followed")
    }

    func errorStatusBodies(_ transport: any HTTPTransport) async throws {
        let check = TransportConformanceCheck.errorStatusBodies
        let server = try LoopbackHTTPServer { request in
            let status = Int(request.pathWithoutQuery.dropFirst()) ?? 500
            return .json(status: status, #"{"error":{"code":\#(status)}}"#, headers: [("Retry-After", "7")])
        }
        defer { server.stop() }
        for status in [400, 401, 404, 429, 500, 503] {
            let (response, body) = try await transport.send(Self.request(server.baseURL + "/\(status)"))
            try Self.expect(response.status == status, check, "status \(response.status) for \(status)")
            try Self.expect(body == Data(#"{"error":{"code":\#(status)}}"#.utf8), check, "the \(status) body was lost")
            try Self.expect(response.headers["retry-after"] == "7", check, "the \(status) headers were lost")
        }
    }
}
