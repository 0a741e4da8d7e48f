import Foundation
import HybridLocalModel
import HybridLocalModelTestSupport
import HybridProjectTestSupport
import HybridTestSupport
import Testing

/// `hybrid` run from a user's own folder: it finds the local model `make setup` recorded for the machine, says
/// where it looked when there is none, and leaves no llama-server behind (not even a zombie) once it returns.
@Suite struct LocalModelDiscoveryCLITests {
    /// The variables blanked (so only the files decide) with the config home pointed into the fixture.
    private func environment(_ fixture: CLIFixture) -> [String: String] {
        var environment = [
            LocalModelInstallation.serverVariable: "", LocalModelInstallation.modelVariable: "",
            "XDG_CONFIG_HOME": fixture.path("config"),
        ]
        for key in ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"] { environment[key] = "" }
        return environment
    }

    private func localRow(_ output: String) -> Substring? {
        output.split(separator: "\n").first { $0.hasPrefix("local-smollm2 ") }
    }

    @Test func aMissingModelNamesEveryPlaceLookedAtAndTheVariables() async throws {
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let listed = try await HybridCLI.run(["models", "--no-start"], in: fixture.directory, environment: environment(fixture))
        #expect(listed.status == 0, "\(listed.output)")
        let row = try #require(localRow(listed.output), "\(listed.output)")
        #expect(row.contains("HYBRID_LLAMA_SERVER in the environment"), "\(row)")
        #expect(row.contains(".hybrid/local-model.env in \(fixture.directory.path)"), "\(row)")
        #expect(row.contains(fixture.path("config") + "/hybridai/local-model.env"), "\(row)")
        #expect(row.contains("set HYBRID_LLAMA_SERVER and HYBRID_SMOLLM2_GGUF to override"), "\(row)")
    }

    @Test func theMachineFileMakesTheModelInstalledFromAnyFolder() async throws {
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let standIn = try StandInLlamaServer(.exitsBeforeListening(1))
        defer { standIn.remove() }
        let file = URL(fileURLWithPath: fixture.path("config/hybridai/local-model.env"))
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "HYBRID_LLAMA_SERVER=\(standIn.installation.serverPath)\nHYBRID_SMOLLM2_GGUF=\(standIn.installation.modelPath)\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let listed = try await HybridCLI.run(["models", "--no-start"], in: fixture.directory, environment: environment(fixture))
        let row = try #require(localRow(listed.output), "\(listed.output)")
        #expect(row.contains("installed, not started"), "\(row)")
    }

    /// Runs `hybrid models` (which starts the real local model and leaves it running to the end) under a parent that
    /// adopts orphans (PR_SET_CHILD_SUBREAPER), so a child `hybrid` did not wait for, dead or alive, lands there.
    @Test func modelsLeavesNoChildBehindNotEvenAZombie() async throws {
        guard let installation = LocalModelRequirement.installed() else { return }
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let script = """
            import ctypes, os, subprocess, sys
            ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
            status = subprocess.run(sys.argv[1:]).returncode
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                print("no child left"); sys.exit(status)
            print("left behind: " + ("a running child" if pid == 0 else f"a zombie, pid {pid}"))
            sys.exit(99)
            """
        try script.write(toFile: fixture.path("subreaper.py"), atomically: true, encoding: .utf8)
        let hybrid = try HybridCLI.executable()
        var environment = self.environment(fixture)
        environment[LocalModelInstallation.serverVariable] = installation.serverPath
        environment[LocalModelInstallation.modelVariable] = installation.modelPath
        let childEnvironment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let (status, output) = try await BlockingWork.run {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", fixture.path("subreaper.py"), hybrid.path, "models"]
            process.environment = childEnvironment
            process.currentDirectoryURL = fixture.directory
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, output)
        }
        #expect(status == 0, "\(output)")
        #expect(output.contains("no child left"), "\(output)")
        #expect(localRow(output)?.contains("available (started and answered") == true, "\(output)")
    }
}
