import Foundation
import Glibc

/// This executable re-launched as `serve-loopback`: the benchmark server in its own process.
struct ChildServer {
    let process: Process
    let port: Int
    private let stdinPipe: Pipe

    var pid: Int32 { process.processIdentifier }

    /// Starts the child (with `serve-loopback` options such as `--delay-ms 20`) and waits for the port it prints.
    static func start(_ options: [String] = []) throws -> ChildServer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["serve-loopback"] + options
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var text = ""
        while !text.contains("\n") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        guard let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            Glibc.kill(process.processIdentifier, SIGKILL)
            throw ChildServerError.noPort(output: text)
        }
        return ChildServer(process: process, port: port, stdinPipe: input)
    }

    /// SIGKILL, not SIGTERM: a child started from a dispatch worker may have SIGTERM blocked.
    func kill() {
        try? stdinPipe.fileHandleForWriting.close()
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// Why the benchmark's server child could not start.
enum ChildServerError: Error, CustomStringConvertible {
    case noPort(output: String)

    var description: String {
        switch self {
        case .noPort(let output): "the loopback server child did not report a port (got \(output.debugDescription))"
        }
    }
}
