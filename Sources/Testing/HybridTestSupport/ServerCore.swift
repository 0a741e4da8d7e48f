import Foundation
import Glibc
import Synchronization

/// State shared by the loopback server's accept thread, its connection threads and the public façade.
final class ServerCore: Sendable {
    enum Handler: Sendable {
        case async(@Sendable (RecordedRequest) async -> ScriptedResponse)
        case immediate(@Sendable (RecordedRequest) -> ScriptedResponse)
    }

    struct State {
        var requests: [RecordedRequest] = []
        var requestCount = 0
        var connectionsAccepted = 0
        var abortedResponses = 0
        var openClients: Set<Int32> = []
        var stopping = false
    }

    let handler: Handler
    let recordRequests: Bool
    let listenFD: Int32
    let port: Int
    /// Readable once `stop()` ran: lets threads blocked in `poll` notice the shutdown.
    let stopReadFD: Int32
    private let stopWriteFD: Int32
    let state = Mutex(State())

    init(handler: Handler, recordRequests: Bool) throws(LoopbackServerError) {
        self.handler = handler
        self.recordRequests = recordRequests
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .socket(call: "socket", errno: errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let error = errno
            close(fd)
            throw .socket(call: "bind", errno: error)
        }
        guard listen(fd, 1024) == 0 else {
            let error = errno
            close(fd)
            throw .socket(call: "listen", errno: error)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            let error = errno
            close(fd)
            throw .socket(call: "getsockname", errno: error)
        }
        guard let stopPipe = Posix.pipe() else {
            let error = errno
            close(fd)
            throw .socket(call: "pipe2", errno: error)
        }
        listenFD = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        stopReadFD = stopPipe.read
        stopWriteFD = stopPipe.write
    }

    deinit {
        close(stopReadFD)
        close(stopWriteFD)
    }

    func startAccepting() {
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "LoopbackHTTPServer.accept"
        thread.stackSize = 256 * 1024
        thread.start()
    }

    private func acceptLoop() {
        defer { close(listenFD) }
        while true {
            let client = accept(listenFD, nil, nil)
            if client < 0 {
                if state.withLock({ $0.stopping }) { return }
                if errno == EINTR || errno == ECONNABORTED { continue }
                // Out of descriptors or similar: back off instead of spinning.
                usleep(10_000)
                continue
            }
            Posix.setCloseOnExec(client)
            var yes: Int32 = 1
            // Each scripted part must leave at once; Nagle would hold small chunks back.
            setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            let number: Int? = state.withLock { s in
                guard !s.stopping else { return nil }
                s.connectionsAccepted += 1
                s.openClients.insert(client)
                return s.connectionsAccepted
            }
            guard let number else {
                close(client)
                return
            }
            let connection = ServerConnection(fd: client, number: number, core: self)
            let thread = Thread { connection.run() }
            thread.name = "LoopbackHTTPServer.connection"
            thread.stackSize = 512 * 1024
            thread.start()
        }
    }

    func record(_ request: RecordedRequest) {
        state.withLock { s in
            s.requestCount += 1
            if recordRequests { s.requests.append(request) }
        }
    }

    func noteAbortedResponse() {
        state.withLock { $0.abortedResponses += 1 }
    }

    /// Closes a client socket; under the lock so `stop()` never shuts down a descriptor number reused elsewhere.
    func closeClient(_ fd: Int32) {
        state.withLock { s in
            s.openClients.remove(fd)
            close(fd)
        }
    }

    var isStopping: Bool { state.withLock { $0.stopping } }

    func stop() {
        let clients: Set<Int32>? = state.withLock { s in
            guard !s.stopping else { return nil }
            s.stopping = true
            // Shutting down (not closing) wakes the blocked accept/recv calls; their threads close the descriptors.
            shutdown(listenFD, Int32(SHUT_RDWR))
            for fd in s.openClients { shutdown(fd, Int32(SHUT_RDWR)) }
            return s.openClients
        }
        guard clients != nil else { return }
        var byte: UInt8 = 1
        _ = write(stopWriteFD, &byte, 1)
    }
}
