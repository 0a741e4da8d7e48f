import Foundation
import HybridLocalModelTestSupport
import HybridProjectTestSupport
import Testing

/// Through the real CLI, a local server that cannot run on this machine (a stand-in that dies by SIGILL, as an
/// AMX build did on a machine of another CPU type, or exits before it listens): `hybrid models` does not call it
/// available, and `hybrid eval` fails the model once with the signal and the remedy and exits 5 instead of 0.
@Suite struct LocalModelFailureCLITests {
    private static let dataset = FileManager.default.currentDirectoryPath + "/datasets/summarize.jsonl"

    private func run(_ arguments: [String], _ fixture: CLIFixture, _ standIn: StandInLlamaServer) async throws -> HybridCLI.Outcome {
        // No cloud key reaches the child: cloud models stay "not measured", which must not fail the run.
        var environment = standIn.environment
        for key in ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"] { environment[key] = "" }
        return try await HybridCLI.run(arguments, in: fixture.directory, environment: environment)
    }

    @Test func modelsNamesTheSignalAndNeverCallsADeadServerAvailable() async throws {
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let standIn = try StandInLlamaServer(.killedBy(SIGILL))
        defer { standIn.remove() }
        let listed = try await run(["models"], fixture, standIn)
        #expect(listed.status == 0, "\(listed.output)")
        let row = try #require(listed.output.split(separator: "\n").first { $0.hasPrefix("local-smollm2 ") })
        #expect(row.contains("unavailable: not running: llama-server was killed by SIGILL (illegal instruction)"))
        #expect(listed.output.contains("remedy: rebuild llama-server for a portable CPU baseline"))
        #expect(listed.output.contains("  " + StandInLlamaServer.logLines[1]))

        let unstarted = try await run(["models", "--no-start"], fixture, standIn)
        let quiet = try #require(unstarted.output.split(separator: "\n").first { $0.hasPrefix("local-smollm2 ") })
        #expect(quiet.contains("installed, not started"))
        #expect(!quiet.contains("available ("))
    }

    @Test func anEvalWhoseLocalModelDiesFailsItOnceAndExits5() async throws {
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let standIn = try StandInLlamaServer(.killedBy(SIGILL))
        defer { standIn.remove() }
        let clock = ContinuousClock()
        let started = clock.now
        let outcome = try await run(
            ["eval", "--feature", "summarize", "--dataset", Self.dataset, "--limit", "4", "--db", fixture.database,
             "--run-id", "dead-local"], fixture, standIn)
        #expect(outcome.status == 5, "\(outcome.output)")
        #expect(clock.now - started < .seconds(60))
        // Started once for the whole run, and said once (not once per result).
        #expect(standIn.launches == 1)
        #expect(outcome.output.components(separatedBy: "cannot serve this run: not running: llama-server was killed by SIGILL").count == 2)
        #expect(outcome.output.contains("local-smollm2 answered 0 of its"))
        #expect(outcome.output.contains("--allow-unavailable"))
        // The results are stored (as unavailable, with the whole reason), not lost.
        let report = try await HybridCLI.run(["report", "dead-local", "--db", fixture.database, "--out", fixture.path("r")], in: fixture.directory)
        #expect(report.status == 0, "\(report.output)")
    }

    /// The empty run of a machine whose local model cannot start, carried on through the loop as a CI job would:
    /// nothing downstream decides from it.
    @Test func nothingDownstreamDecidesFromAnEmptyRun() async throws {
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let standIn = try StandInLlamaServer(.killedBy(SIGILL))
        defer { standIn.remove() }
        let eval = try await run(
            ["eval", "--feature", "summarize", "--dataset", Self.dataset, "--limit", "3", "--db", fixture.database,
             "--run-id", "empty", "--allow-unavailable"], fixture, standIn)
        #expect(eval.status == 0, "\(eval.output)")
        let recommend = try await run(
            ["recommend", "empty", "--db", fixture.database, "--out", fixture.path("proposed.json")], fixture, standIn)
        #expect(recommend.status != 0)
        #expect(recommend.output.contains("has no answered case on any arm"), "\(recommend.output)")
        #expect(!FileManager.default.fileExists(atPath: fixture.path("proposed.json")))
        let check = try await run(["simulate", "empty", "--check-router", "--db", fixture.database], fixture, standIn)
        #expect(check.status == 1)
        #expect(check.output.contains("nothing to check") && !check.output.contains("100.0 %"), "\(check.output)")
        try #"{"features": {"*": {"*": {"minAdherenceLower": 0.5}}}}"#.write(
            toFile: fixture.path("gates.json"), atomically: true, encoding: .utf8)
        let gated = try await run(
            ["report", "empty", "--db", fixture.database, "--gate", fixture.path("gates.json"), "--out", fixture.path("r")],
            fixture, standIn)
        #expect(gated.status == 3, "\(gated.output)")
        #expect(gated.output.contains("evidence") && gated.output.contains("no arm answered any case"), "\(gated.output)")
        // The report's first lines name the model that answered nothing, with its whole reason.
        let markdown = try String(contentsOfFile: fixture.path("r/report.md"), encoding: .utf8)
        let named = try #require(markdown.range(of: "`local-smollm2` answered 0 of 6 results"))
        #expect(named.lowerBound < (markdown.range(of: "|")?.lowerBound ?? markdown.endIndex))
        #expect(markdown.contains("killed by SIGILL"))
    }

    @Test func allowUnavailableAcceptsSuchARunAndAnExitBeforeListeningIsNamed() async throws {
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let standIn = try StandInLlamaServer(.exitsBeforeListening(1))
        defer { standIn.remove() }
        let outcome = try await run(
            ["eval", "--feature", "summarize", "--dataset", Self.dataset, "--limit", "2", "--db", fixture.database,
             "--allow-unavailable"], fixture, standIn)
        #expect(outcome.status == 0, "\(outcome.output)")
        #expect(outcome.output.contains("llama-server exited with status 1 before its port opened"))
        #expect(standIn.launches == 1)
    }
}
