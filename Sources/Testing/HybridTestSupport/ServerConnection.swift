import Dispatch
import Foundation
import Glibc
import Synchronization

/// One client connection of the loopback server, served on its own thread: read a request, run the handler,
/// play the scripted response, repeat while the connection stays alive.
///
/// `@unchecked Sendable`: it is created by the accept thread and then used only by its own connection thread.
final class ServerConnection: @unchecked Sendable {
    private let fd: Int32
    private let number: Int
    private let core: ServerCore
    private var buffer: [UInt8] = []
    private var receiveBuffer = [UInt8](repeating: 0, count: 65536)
    private var start = 0

    init(fd: Int32, number: Int, core: ServerCore) {
        self.fd = fd
        self.number = number
        self.core = core
    }

    func run() {
        defer { core.closeClient(fd) }
        while !core.isStopping, let request = readRequest() {
            core.record(request)
            let response = respond(to: request)
            guard play(response, for: request) else { return }
        }
    }

    private func respond(to request: RecordedRequest) -> ScriptedResponse {
        switch core.handler {
        case .immediate(let handler):
            return handler(request)
        case .async(let handler):
            // This is a dedicated thread, not the cooperative pool, so blocking it on the handler is fine.
            let box = Mutex<ScriptedResponse?>(nil)
            let done = DispatchSemaphore(value: 0)
            Task {
                let response = await handler(request)
                box.withLock { $0 = response }
                done.signal()
            }
            done.wait()
            return box.withLock { $0 } ?? ScriptedResponse(status: 500)
        }
    }

    // MARK: Reading

    /// Reads more bytes; false on EOF, error or shutdown.
    private func fill() -> Bool {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        // Received into a buffer kept for the connection, then appended as one copy: growing `buffer` by 64 KiB of
        // zeros per read was a quarter of a loopback-heavy test's CPU in a debug build.
        let received = receiveBuffer.withUnsafeMutableBytes { raw in recv(fd, raw.baseAddress!, raw.count, 0) }
        guard received > 0 else { return false }
        receiveBuffer.withUnsafeBufferPointer { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: $0[0..<received])) }
        return true
    }

    private func headEnd() -> Int? {
        var index = start
        while index + 3 < buffer.count {
            if buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
                return index
            }
            index += 1
        }
        return nil
    }

    private func readRequest() -> RecordedRequest? {
        var end = headEnd()
        while end == nil {
            guard fill() else { return nil }
            end = headEnd()
        }
        guard let end else { return nil }
        let headText = String(decoding: buffer[start..<end], as: UTF8.self)
        start = end + 4
        var lines = headText.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: true)
        guard requestLine.count >= 2 else { return nil }
        var headers: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((
                String(line[..<colon]).trimmingCharacters(in: .whitespaces),
                String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            ))
        }
        func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
        if header("Expect")?.lowercased() == "100-continue" {
            guard send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return nil }
        }
        let body: [UInt8]
        if header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
            guard let decoded = readChunkedBody() else { return nil }
            body = decoded
        } else if let length = header("Content-Length").flatMap({ Int($0) }), length > 0 {
            while buffer.count - start < length {
                guard fill() else { return nil }
            }
            body = Array(buffer[start..<start + length])
            start += length
        } else {
            body = []
        }
        return RecordedRequest(
            method: String(requestLine[0]),
            path: String(requestLine[1]),
            headers: headers,
            body: Data(body),
            connectionNumber: number
        )
    }

    private func readLine() -> String? {
        while true {
            var index = start
            while index + 1 < buffer.count {
                if buffer[index] == 13 && buffer[index + 1] == 10 {
                    let line = String(decoding: buffer[start..<index], as: UTF8.self)
                    start = index + 2
                    return line
                }
                index += 1
            }
            guard fill() else { return nil }
        }
    }

    private func readChunkedBody() -> [UInt8]? {
        var body: [UInt8] = []
        while true {
            guard let sizeLine = readLine() else { return nil }
            let sizeText = sizeLine.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
            guard let size = Int(sizeText, radix: 16), size >= 0 else { return nil }
            if size == 0 {
                // Trailers, up to the empty line.
                while let line = readLine() {
                    if line.isEmpty { return body }
                }
                return nil
            }
            while buffer.count - start < size + 2 {
                guard fill() else { return nil }
            }
            body.append(contentsOf: buffer[start..<start + size])
            start += size + 2
        }
    }

    // MARK: Writing

    /// Plays `response`; true if the connection may serve another request.
    private func play(_ response: ScriptedResponse, for request: RecordedRequest) -> Bool {
        if response.hangsUp { return false }
        let isHead = request.method.uppercased() == "HEAD"
        let connectionHeader = request.header("Connection")?.lowercased() ?? ""
        var keepAlive = !connectionHeader.contains("close")
        if response.framing == .closeDelimited { keepAlive = false }
        if response.parts.contains(where: { if case .closeConnection = $0 { true } else { false } }) { keepAlive = false }

        func has(_ name: String) -> Bool {
            response.headers.contains { $0.name.caseInsensitiveCompare(name) == .orderedSame }
        }
        var head = "HTTP/1.1 \(response.status) \(response.reason)\r\n"
        for field in response.headers { head += "\(field.name): \(field.value)\r\n" }
        switch response.framing {
        case .contentLength where !has("Content-Length"):
            let length = response.parts.reduce(0) { sum, part in
                if case .bytes(let data) = part { sum + data.count } else { sum }
            }
            head += "Content-Length: \(length)\r\n"
        case .chunked where !has("Transfer-Encoding"):
            head += "Transfer-Encoding: chunked\r\n"
        default:
            break
        }
        if !keepAlive && !has("Connection") { head += "Connection: close\r\n" }
        head += "\r\n"

        if let headDelay = response.headDelay {
            guard wait(for: nil, upTo: headDelay) else { return abort() }
        }
        var pending = Array(head.utf8)
        let chunked = response.framing == .chunked && !isHead
        for part in response.parts {
            switch part {
            case .bytes(let data):
                guard !isHead, !data.isEmpty else { continue }
                if chunked { pending += Array("\(String(data.count, radix: 16))\r\n".utf8) }
                pending += data
                if chunked { pending += [13, 10] }
                guard send(pending) else { return abort() }
                pending.removeAll(keepingCapacity: true)
            case .delay(let duration):
                guard send(pending) else { return abort() }
                pending.removeAll(keepingCapacity: true)
                guard wait(for: nil, upTo: duration) else { return abort() }
            case .waitFor(let signal):
                guard send(pending) else { return abort() }
                pending.removeAll(keepingCapacity: true)
                guard wait(for: signal, upTo: nil) else { return abort() }
            case .closeConnection:
                _ = send(pending)
                return false
            }
        }
        if chunked { pending += Array("0\r\n\r\n".utf8) }
        guard send(pending) else { return abort() }
        return keepAlive
    }

    private func abort() -> Bool {
        if !core.isStopping { core.noteAbortedResponse() }
        return false
    }

    private func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += sent
        }
        return true
    }

    /// Waits until `signal` fires or `duration` passes. False if the client hung up or the server stops first.
    private func wait(for signal: ServerSignal?, upTo duration: Duration?) -> Bool {
        let deadline = duration.map { ContinuousClock.now + $0 }
        // POLLRDHUP (Linux, 0x2000): the peer closed its side. Plain POLLIN may just be a pipelined request.
        let peerClosed: Int16 = 0x2000
        var watchClient = true
        while true {
            var fds = [pollfd(fd: core.stopReadFD, events: Int16(POLLIN), revents: 0)]
            if let signal { fds.append(pollfd(fd: signal.readFD, events: Int16(POLLIN), revents: 0)) }
            if watchClient { fds.append(pollfd(fd: fd, events: Int16(POLLIN) | peerClosed, revents: 0)) }
            var timeout: Int32 = -1
            if let deadline {
                let remaining = deadline - .now
                if remaining <= .zero { return true }
                let (seconds, attoseconds) = remaining.components
                timeout = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            }
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return false
            }
            if fds[0].revents != 0 { return false }
            if let signal, signal.isFired || fds[1].revents != 0 { return true }
            if watchClient, let client = fds.last, client.fd == fd, client.revents != 0 {
                if client.revents & (peerClosed | Int16(POLLHUP) | Int16(POLLERR)) != 0 { return false }
                watchClient = false
            }
        }
    }
}
