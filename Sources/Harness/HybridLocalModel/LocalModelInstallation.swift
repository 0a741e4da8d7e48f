import Foundation
public import HybridCore

/// Where the embedded local model's server binary and weights are on this machine.
///
/// `make setup` (scripts/setup-local-model.sh) builds llama-server into a per-user cache and writes both paths to
/// `.hybrid/local-model.env` in the project; environment variables override that file so apps and CI can point
/// elsewhere without editing anything.
public struct LocalModelInstallation: Sendable, Hashable {
    /// The `llama-server` executable.
    public var serverPath: String
    /// The GGUF weights file.
    public var modelPath: String

    /// Creates an installation; the paths are not checked here (`discover` checks the files exist).
    public init(serverPath: String, modelPath: String) {
        self.serverPath = serverPath
        self.modelPath = modelPath
    }

    /// Variable naming the llama-server executable.
    public static let serverVariable = "HYBRID_LLAMA_SERVER"
    /// Variable naming the default model's GGUF file.
    public static let modelVariable = "HYBRID_SMOLLM2_GGUF"
    /// The command that installs both.
    public static let fixCommand = "make setup"

    /// Finds the installation from the environment, then from `.hybrid/local-model.env` in `directory` or any parent.
    ///
    /// Returns the reason a user can act on when something is missing, rather than throwing, because a missing local
    /// model is an ordinary availability state, not a failure.
    public static func discover(
        environment: [String: String]? = nil,
        searchingFrom directory: String? = nil,
        modelVariable: String = LocalModelInstallation.modelVariable
    ) -> Result<LocalModelInstallation, UnavailabilityReason> {
        let environment = environment ?? ProcessInfo.processInfo.environment
        let directory = directory ?? FileManager.default.currentDirectoryPath
        var values = envFile(searchingFrom: directory)
        for key in [serverVariable, modelVariable] {
            if let value = environment[key], !value.isEmpty { values[key] = value }
        }
        let fm = FileManager.default
        guard let server = values[serverVariable], fm.isExecutableFile(atPath: server) else {
            return .failure(.notInstalled(what: "llama-server", fix: fixCommand))
        }
        guard let model = values[modelVariable], fm.fileExists(atPath: model) else {
            return .failure(.notInstalled(what: "the model weights (\(modelVariable))", fix: fixCommand))
        }
        return .success(LocalModelInstallation(serverPath: server, modelPath: model))
    }

    /// KEY=VALUE lines of the nearest `.hybrid/local-model.env`, or nothing.
    static func envFile(searchingFrom directory: String) -> [String: String] {
        var url = URL(fileURLWithPath: directory, isDirectory: true)
        for _ in 0..<8 {
            let candidate = url.appendingPathComponent(".hybrid/local-model.env")
            if let text = try? String(contentsOf: candidate, encoding: .utf8) {
                var values: [String: String] = [:]
                for line in text.split(whereSeparator: \.isNewline) {
                    guard let eq = line.firstIndex(of: "="), !line.hasPrefix("#") else { continue }
                    values[String(line[..<eq])] = String(line[line.index(after: eq)...])
                }
                return values
            }
            let parent = url.deletingLastPathComponent()
            if parent.path == url.path { break }
            url = parent
        }
        return [:]
    }
}
