public import Foundation
public import HybridLocalModel

/// A stand-in for `llama-server` that fails the way a real one can on a machine it was not built for, so the
/// failure path (the signal named, the remedy, the log's last lines, one failure per run, the exit code) is tested
/// without that machine: a shell script that prints two log lines and then kills itself with a signal, or exits
/// before it listens. It counts its launches in a file, so a test can tell "failed once" from "failed per request".
public struct StandInLlamaServer: Sendable {
    /// How the stand-in ends.
    public enum Failure: Sendable {
        /// It kills itself with this signal after "loading the model" (SIGILL is what an AMX build did).
        case killedBy(Int32)
        /// It exits with this status before opening its port.
        case exitsBeforeListening(Int32)
    }

    /// The folder holding the script, the fake weights and the launch count.
    public let directory: URL
    /// The installation to hand to `LocalLlamaModel` or to the CLI (`environment`).
    public let installation: LocalModelInstallation

    /// The log lines it prints before failing, in order.
    public static let logLines = ["main: build info: stand-in", "load_model: loading model 'stand-in.gguf'"]

    /// Writes the stand-in into a new temporary folder.
    public init(_ failure: Failure) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-standin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = directory.appendingPathComponent("bin/llama-server")
        try FileManager.default.createDirectory(at: script.deletingLastPathComponent(), withIntermediateDirectories: true)
        let ending = switch failure {
        case .killedBy(let signal): "kill -\(signal) $$"
        case .exitsBeforeListening(let status): "exit \(status)"
        }
        let body = """
            #!/bin/sh
            echo launched >> '\(directory.path)/launches'
            echo "\(Self.logLines[0])"
            echo "\(Self.logLines[1])" >&2
            \(ending)

            """
        try body.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let weights = directory.appendingPathComponent("stand-in.gguf")
        try Data("GGUF".utf8).write(to: weights)
        installation = LocalModelInstallation(serverPath: script.path, modelPath: weights.path)
    }

    /// How many times it was started.
    public var launches: Int {
        let text = (try? String(contentsOf: directory.appendingPathComponent("launches"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").count
    }

    /// The variables that point `hybrid` (or `LocalModelInstallation.discover`) at the stand-in.
    public var environment: [String: String] {
        [LocalModelInstallation.serverVariable: installation.serverPath,
         LocalModelInstallation.modelVariable: installation.modelPath]
    }

    /// Deletes the folder.
    public func remove() { try? FileManager.default.removeItem(at: directory) }
}
