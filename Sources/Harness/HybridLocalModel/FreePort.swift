import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds a TCP port on 127.0.0.1 that is free right now, by binding port 0 and reading back what the OS chose.
///
/// The port is released before the server binds it, so another process could take it in between; the start-up
/// health check then fails and says so, which is acceptable for a loopback helper.
enum FreePort {
    enum Failure: Error, CustomStringConvertible {
        case socket(String)
        var description: String {
            switch self { case .socket(let detail): "cannot find a free port on 127.0.0.1: \(detail)" }
        }
    }

    static func find() throws -> Int {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure.socket(String(cString: strerror(errno))) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw Failure.socket(String(cString: strerror(errno))) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw Failure.socket(String(cString: strerror(errno))) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
