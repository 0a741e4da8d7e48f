import Foundation
import HybridCore
import HybridCurl
@testable import HybridLocalModel
import HybridLocalModelTestSupport
import Testing

/// A llama-server that dies is named by its signal and what to do, with its log's last lines in order, and is not
/// started again for every request. Stand-in servers (shell scripts) fail the way a real build did on a machine
/// of another CPU type, so this runs on any machine.
@Suite struct LocalServerFailureTests {
    private func server(_ standIn: StandInLlamaServer) -> LlamaServerProcess {
        LlamaServerProcess(
            configuration: .init(installation: standIn.installation, startupTimeout: .seconds(20)),
            transport: CurlTransport.shared)
    }

    private func startFailure(_ server: LlamaServerProcess) async -> GenerationError? {
        do {
            _ = try await server.start()
            return nil
        } catch {
            return error
        }
    }

    @Test func aServerKilledBySIGILLIsNamedWithTheRemedyAndItsLogInOrder() async throws {
        let standIn = try StandInLlamaServer(.killedBy(SIGILL))
        defer { standIn.remove() }
        let server = server(standIn)
        let error = try #require(await startFailure(server))
        #expect(error.kind == .unavailable)
        let message = try #require(error.reason?.message)
        #expect(message.contains("llama-server was killed by SIGILL (illegal instruction) before its port opened"))
        #expect(message.contains("this build uses CPU instructions this machine refuses"))
        #expect(message.contains("remedy: rebuild llama-server for a portable CPU baseline"))
        // The stand-in is not in a folder `make setup` made, so no folder of the user's is offered for deletion.
        #expect(message.contains("`make setup`, or point HYBRID_LLAMA_SERVER at a build made without -march=native"))
        #expect(!message.contains("rm -rf"))
        // The log's lines, whole and in order, each on its own line (not joined with `|`, not cut).
        let lines = message.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let first = try #require(lines.firstIndex(of: StandInLlamaServer.logLines[0]))
        #expect(lines[first + 1] == StandInLlamaServer.logLines[1])
        #expect(!message.contains("status 4"))
    }

    @Test func theRemedyDeletesOnlyAFolderThatSetupMade() {
        let cached = LlamaServerProcess.rebuildCommand(
            serverPath: "/root/.cache/hybridai/llama-server-11434.0.0-x86-64-v3-abc/bin/llama-server")
        #expect(cached == "`rm -rf /root/.cache/hybridai/llama-server-11434.0.0-x86-64-v3-abc && make setup`")
        #expect(!LlamaServerProcess.rebuildCommand(serverPath: "/tmp/x/llama-server").contains("rm -rf"))
        #expect(!LlamaServerProcess.rebuildCommand(serverPath: "/usr/bin/llama-server").contains("rm -rf"))
    }

    @Test func aFailedServerFailsAgainAtOnceWithoutAnotherLaunchUntilStopped() async throws {
        let standIn = try StandInLlamaServer(.killedBy(SIGILL))
        defer { standIn.remove() }
        let server = server(standIn)
        let first = try #require(await startFailure(server))
        let second = try #require(await startFailure(server))
        #expect(first == second)
        #expect(standIn.launches == 1)
        #expect(await server.unavailability() == first.reason)
        await server.stop()
        #expect(await server.unavailability() == nil)
        _ = await startFailure(server)
        #expect(standIn.launches == 2)
    }

    @Test func aServerThatExitsBeforeListeningSaysSoWithItsStatus() async throws {
        let standIn = try StandInLlamaServer(.exitsBeforeListening(1))
        defer { standIn.remove() }
        let error = try #require(await startFailure(server(standIn)))
        let message = try #require(error.reason?.message)
        #expect(message.contains("llama-server exited with status 1 before its port opened"))
        #expect(message.contains(StandInLlamaServer.logLines[1]))
    }

    @Test(arguments: [
        (SIGKILL, "killed by SIGKILL (killed)", "out-of-memory"),
        (SIGSEGV, "killed by SIGSEGV (segmentation fault)", "corrupt model file"),
    ])
    func otherFatalSignalsAreNamedWithTheirLikelyCause(signal: Int32, named: String, cause: String) async throws {
        let standIn = try StandInLlamaServer(.killedBy(signal))
        defer { standIn.remove() }
        let message = try #require(await startFailure(server(standIn))?.reason?.message)
        #expect(message.contains(named))
        #expect(message.contains(cause))
    }

    @Test func theModelIsUnavailableWithTheReasonOnceItsServerFailed() async throws {
        let standIn = try StandInLlamaServer(.killedBy(SIGILL))
        defer { standIn.remove() }
        let model = LocalLlamaModel(
            id: "local-standin", installation: .success(standIn.installation), transport: CurlTransport.shared)
        defer { Task { await model.process?.stop() } }
        // Installed and not started: the router may try it (it starts on the first request).
        #expect(await model.availability() == .available)
        #expect(await !model.isRunning)
        await #expect(throws: GenerationError.self) { try await model.prepare() }
        guard case .unavailable(let reason) = await model.availability() else {
            Issue.record("a model whose server died by SIGILL must be unavailable")
            return
        }
        #expect(reason.message.contains("SIGILL"))
        await #expect(throws: GenerationError.self) { _ = try await model.generate(GenerationRequest(prompt: "hi")) }
        #expect(standIn.launches == 1)
    }
}
