import Foundation
public import HybridCore

/// Where the embedded local model's server binary and weights are on this machine.
///
/// `make setup` (scripts/setup-local-model.sh) builds llama-server into a per-user cache and writes both paths to
/// `.hybrid/local-model.env` in the project and to the per-machine `hybridai/local-model.env` under
/// `$XDG_CONFIG_HOME` (default `~/.config`), so `hybrid` finds them from any folder. Environment variables override
/// both files so apps and CI can point elsewhere without editing anything.
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
    /// The project file `make setup` writes, relative to the project's root.
    public static let projectFile = ".hybrid/local-model.env"

    /// The per-machine file `make setup` writes: `$XDG_CONFIG_HOME/hybridai/local-model.env`, else
    /// `$HOME/.config/hybridai/local-model.env`; nil when `environment` names neither folder.
    public static func machineFile(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], !config.isEmpty { return config + "/hybridai/local-model.env" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.config/hybridai/local-model.env" }
        return nil
    }

    /// Finds the installation from the environment, then from `.hybrid/local-model.env` in `directory` or any parent,
    /// then from the per-machine file (`machineFile(environment:)`); each variable is taken from the first that sets it.
    ///
    /// Returns the reason a user can act on when something is missing, rather than throwing, because a missing local
    /// model is an ordinary availability state, not a failure. The reason names every place looked at.
    public static func discover(
        environment: [String: String]? = nil,
        searchingFrom directory: String? = nil,
        modelVariable: String = LocalModelInstallation.modelVariable
    ) -> Result<LocalModelInstallation, UnavailabilityReason> {
        let environment = environment ?? ProcessInfo.processInfo.environment
        let directory = directory ?? FileManager.default.currentDirectoryPath
        let sources = sources(environment: environment, directory: directory)
        let fm = FileManager.default
        let server = lookUp(serverVariable, in: sources)
        guard let serverPath = server?.value, fm.isExecutableFile(atPath: serverPath) else {
            return .failure(missing("llama-server", variable: serverVariable, found: server, directory: directory, environment: environment))
        }
        let model = lookUp(modelVariable, in: sources)
        guard let modelPath = model?.value, fm.fileExists(atPath: modelPath) else {
            return .failure(missing("the model weights", variable: modelVariable, found: model, directory: directory, environment: environment))
        }
        return .success(LocalModelInstallation(serverPath: serverPath, modelPath: modelPath))
    }

    /// Where variables come from, first wins: the environment, the nearest project file, the per-machine file.
    private static func sources(environment: [String: String], directory: String) -> [(origin: String, values: [String: String])] {
        var sources = [("the environment", environment.filter { !$0.value.isEmpty })]
        if let project = nearestProjectFile(from: directory) { sources.append((project, envFile(at: project))) }
        if let machine = machineFile(environment: environment) { sources.append((machine, envFile(at: machine))) }
        return sources
    }

    private static func lookUp(_ key: String, in sources: [(origin: String, values: [String: String])]) -> (value: String, origin: String)? {
        for source in sources {
            if let value = source.values[key], !value.isEmpty { return (value, source.origin) }
        }
        return nil
    }

    /// The reason for a missing piece: the path that was named and by what, or every place looked at and the
    /// variable that overrides them.
    private static func missing(
        _ what: String, variable: String, found: (value: String, origin: String)?, directory: String, environment: [String: String]
    ) -> UnavailabilityReason {
        if let found {
            return .notInstalled(what: "\(what) at \(found.value) (\(variable) from \(found.origin))", fix: fixCommand)
        }
        var places = ["\(variable) in the environment", "\(projectFile) in \(directory) and every folder above it"]
        places.append(machineFile(environment: environment) ?? "no per-machine file (neither XDG_CONFIG_HOME nor HOME is set)")
        let looked = places.joined(separator: "; ")
        return .notInstalled(
            what: "\(what) (looked at: \(looked); set \(serverVariable) and \(modelVariable) to override)", fix: fixCommand)
    }

    /// The nearest `.hybrid/local-model.env` in `directory` or a folder above it.
    static func nearestProjectFile(from directory: String) -> String? {
        var folder = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL.path
        while true {
            let candidate = (folder as NSString).appendingPathComponent(projectFile)
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            let parent = (folder as NSString).deletingLastPathComponent
            if parent == folder || parent.isEmpty { return nil }
            folder = parent
        }
    }

    /// KEY=VALUE lines of the file at `path`, or nothing when it cannot be read.
    static func envFile(at path: String) -> [String: String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
        var values: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            guard let eq = line.firstIndex(of: "="), !line.hasPrefix("#") else { continue }
            values[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        return values
    }
}
