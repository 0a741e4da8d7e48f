import Glibc

/// Raw-socket fixtures for failure modes the loopback server cannot script. 127.0.0.1 only.
package enum SocketFixtures {
    /// A port on 127.0.0.1 with nothing listening: bound, never listened on, closed.
    package static func closedPort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopbackAddress(port: 0)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return port(of: fd)
    }

    static func loopbackAddress(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    static func port(of fd: Int32) -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A listener that never accepts, with its accept queue already full: Linux drops further SYNs, so a new
/// connection attempt hangs in the connect phase (a loopback stand-in for an unreachable host).
package final class FullBacklogListener: Sendable {
    /// The port whose connection attempts hang.
    package let port: Int
    private let listenFD: Int32
    private let fillers: [Int32]

    /// Listens, fills the accept queue and waits 200 ms for the fillers' handshakes to settle.
    package init() {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = SocketFixtures.loopbackAddress(port: 0)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        _ = listen(fd, 0)
        listenFD = fd
        port = SocketFixtures.port(of: fd)
        var target = SocketFixtures.loopbackAddress(port: port)
        var fillers: [Int32] = []
        for _ in 0..<4 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = withUnsafePointer(to: &target) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            fillers.append(fd)
        }
        self.fillers = fillers
        // Let the handshakes of the fillers settle so the queue is full before the test connects.
        usleep(200_000)
    }

    deinit {
        for fd in fillers { close(fd) }
        close(listenFD)
    }
}
