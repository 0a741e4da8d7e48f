public import Foundation
public import HybridTransport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Debian's nginx serving a folder on 127.0.0.1, for tests that need a real HTTP server with real ETags.
///
/// Runs in the foreground as one process (`master_process off`), so SIGKILL stops all of it; every path (logs,
/// pid, temp folders) lives in a private temporary folder.
public final class NginxServer {
    public enum Failure: Error, CustomStringConvertible {
        case notInstalled(String)
        case didNotStart(String)

        public var description: String {
            switch self {
            case .notInstalled(let path): "nginx is not installed at \(path); run `make setup` (apt-get install -y nginx)"
            case .didNotStart(let log): "nginx did not start: \(log)"
            }
        }
    }

    public static let binary = "/usr/sbin/nginx"

    /// The folder nginx serves.
    public let root: URL
    public let port: Int
    private let directory: URL
    private let process: Process

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    public init() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binary) else { throw Failure.notInstalled(Self.binary) }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-nginx-\(UUID().uuidString)")
        root = directory.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        // Readable by any worker user, should nginx drop privileges.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: root.path)
        port = try Self.freeLoopbackPort()
        let d = directory.path
        let conf = """
            master_process off;
            worker_processes 1;
            error_log \(d)/error.log warn;
            pid \(d)/nginx.pid;
            events { worker_connections 32; }
            http {
                access_log off;
                client_body_temp_path \(d)/client_body;
                proxy_temp_path \(d)/proxy;
                fastcgi_temp_path \(d)/fastcgi;
                uwsgi_temp_path \(d)/uwsgi;
                scgi_temp_path \(d)/scgi;
                types { application/json json; }
                default_type application/octet-stream;
                server {
                    listen 127.0.0.1:\(port);
                    root \(root.path);
                }
            }
            """
        try Data(conf.utf8).write(to: directory.appendingPathComponent("nginx.conf"))
        process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["-p", d + "/", "-e", d + "/error.log", "-c", d + "/nginx.conf", "-g", "daemon off;"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Waits until nginx answers (any status) on its port; throws with its error log when it exits or stalls.
    public func waitUntilReady(transport: any HTTPTransport, timeout: Duration = .seconds(15)) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard process.isRunning else { throw Failure.didNotStart(errorLog) }
            let probe = HTTPRequest(url: baseURL + "/", timeouts: HTTPTimeouts(connect: .seconds(1), total: .seconds(2)))
            if (try? await transport.send(probe)) != nil { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw Failure.didNotStart("no answer within \(timeout): \(errorLog)")
    }

    public var errorLog: String {
        (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? "(no error log)"
    }

    /// SIGKILL (signals like SIGTERM may be blocked in children of dispatch threads), then removes the folder.
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// A port the OS reports free on 127.0.0.1 (bind port 0, read it back, release it for nginx).
    public static func freeLoopbackPort() throws -> Int {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure.didNotStart("socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                bind(fd, sa, length) == 0 && getsockname(fd, sa, &length) == 0
            }
        }
        guard bound else { throw Failure.didNotStart("could not bind 127.0.0.1:0") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
