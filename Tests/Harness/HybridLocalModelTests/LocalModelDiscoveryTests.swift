import Foundation
import HybridCore
import HybridLocalModel
import Testing

/// Where `LocalModelInstallation.discover` looks, in order: the variables, the nearest project
/// `.hybrid/local-model.env`, the per-machine file `make setup` also writes; and what it says when all are empty.
@Suite struct LocalModelDiscoveryTests {
    /// A folder holding an executable "server", a "weights" file, a project below it and a config home.
    private struct Machine {
        let root: URL
        var server: String { root.appendingPathComponent("bin/llama-server").path }
        var weights: String { root.appendingPathComponent("model.gguf").path }
        var project: URL { root.appendingPathComponent("project") }
        var configHome: URL { root.appendingPathComponent("config") }
        var elsewhere: URL { root.appendingPathComponent("elsewhere/deeper") }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-discovery-\(UUID().uuidString)")
            for folder in ["bin", "project/sub", "config", "elsewhere/deeper"] {
                try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
            }
            try "#!/bin/sh\n".write(toFile: server, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: server)
            try Data("GGUF".utf8).write(to: URL(fileURLWithPath: weights))
        }

        func writeEnv(_ file: URL, server: String, model: String) throws {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try "HYBRID_LLAMA_SERVER=\(server)\nHYBRID_SMOLLM2_GGUF=\(model)\n".write(to: file, atomically: true, encoding: .utf8)
        }

        var machineFile: URL { configHome.appendingPathComponent("hybridai/local-model.env") }
        var projectFile: URL { project.appendingPathComponent(".hybrid/local-model.env") }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    @Test func theMachineFileIsFoundFromAFolderOutsideAnyProject() throws {
        let machine = try Machine()
        defer { machine.remove() }
        try machine.writeEnv(machine.machineFile, server: machine.server, model: machine.weights)
        let found = LocalModelInstallation.discover(
            environment: ["XDG_CONFIG_HOME": machine.configHome.path], searchingFrom: machine.elsewhere.path)
        #expect(found == .success(LocalModelInstallation(serverPath: machine.server, modelPath: machine.weights)))
        // HOME/.config is the default config home.
        let viaHome = try Machine()
        defer { viaHome.remove() }
        try viaHome.writeEnv(viaHome.root.appendingPathComponent(".config/hybridai/local-model.env"), server: viaHome.server, model: viaHome.weights)
        #expect(LocalModelInstallation.discover(environment: ["HOME": viaHome.root.path], searchingFrom: viaHome.elsewhere.path)
            == .success(LocalModelInstallation(serverPath: viaHome.server, modelPath: viaHome.weights)))
    }

    @Test func variablesBeatTheProjectFileWhichBeatsTheMachineFile() throws {
        let machine = try Machine()
        defer { machine.remove() }
        try machine.writeEnv(machine.machineFile, server: "/nonexistent/machine-server", model: "/nonexistent/machine.gguf")
        try machine.writeEnv(machine.projectFile, server: machine.server, model: "/nonexistent/project.gguf")
        let fromSub = machine.project.appendingPathComponent("sub").path
        // The project file (found from a folder below it) wins over the machine file; its missing weights are named.
        let projectWins = LocalModelInstallation.discover(environment: ["XDG_CONFIG_HOME": machine.configHome.path], searchingFrom: fromSub)
        #expect(projectWins == .failure(.notInstalled(
            what: "the model weights at /nonexistent/project.gguf (HYBRID_SMOLLM2_GGUF from \(machine.projectFile.path))", fix: "make setup")))
        // A variable wins over both, one key at a time.
        let variableWins = LocalModelInstallation.discover(
            environment: ["XDG_CONFIG_HOME": machine.configHome.path, "HYBRID_SMOLLM2_GGUF": machine.weights], searchingFrom: fromSub)
        #expect(variableWins == .success(LocalModelInstallation(serverPath: machine.server, modelPath: machine.weights)))
    }

    @Test func nothingFoundListsEveryPlaceAndTheOverridingVariables() throws {
        let machine = try Machine()
        defer { machine.remove() }
        let missing = LocalModelInstallation.discover(
            environment: ["XDG_CONFIG_HOME": machine.configHome.path], searchingFrom: machine.elsewhere.path)
        guard case .failure(let reason) = missing else {
            Issue.record("expected a failure, got \(missing)")
            return
        }
        let message = reason.message
        #expect(message.contains("HYBRID_LLAMA_SERVER in the environment"), "\(message)")
        #expect(message.contains(".hybrid/local-model.env in \(machine.elsewhere.path) and every folder above it"), "\(message)")
        #expect(message.contains(machine.machineFile.path), "\(message)")
        #expect(message.contains("set HYBRID_LLAMA_SERVER and HYBRID_SMOLLM2_GGUF to override"), "\(message)")
        #expect(message.hasSuffix("is not installed; run `make setup`"), "\(message)")
    }
}
