import Foundation
import HybridPostgres
import HybridStore
import HybridTestSupport
import HybridTesting
import Synchronization
import Testing
import HybridProjectTestSupport

/// `hybrid eval --worker`: many processes fill one run in a shared PostgreSQL store, each key stored exactly once,
/// and a worker killed with SIGKILL loses nothing.
@Suite("hybrid eval --worker on PostgreSQL", .postgresServer, .serialized)
struct WorkerTests {
    /// 10 cases × 2 variants × 2 models.
    static let planned = 40

    /// Writes a config over two models at `fake` and a 10-case dataset; the worker command line over them.
    static func evalArguments(_ fixture: CLIFixture, fake: FakeChatCompletionsServer, db: String, run: String) throws -> [String] {
        let config = try fixture.writeConfig("c.json", models: ["fake-a", "fake-b"], baseURL: fake.baseURL)
        let dataset = try fixture.writeDataset("cases.jsonl", count: 10)
        return ["--db", db, "--config", config, "eval", "--feature", "summarize", "--dataset", dataset, "--run-id", run, "--worker"]
    }

    /// The stored run, its results and what is left in the queue, read through the store's protocols.
    static func check(_ url: String, run: String) async throws -> (status: RunStatus?, keys: Int, rows: Int, queued: Int) {
        let database = try await PostgresDatabase(url: url)
        defer { database.close() }
        let store = PostgresResultStore(database: database)
        return (
            try await store.run(id: run)?.status, try await store.completedKeys(run: run).count,
            try await store.resultCount(run: run), try await store.queuedCount(run: run)
        )
    }

    /// Expects the run completed with every key stored exactly once and nothing left in the queue.
    static func expectFinished(_ url: String, run: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let state = try await check(url, run: run)
        #expect(state.status == .completed, sourceLocation: sourceLocation)
        #expect(state.keys == planned && state.rows == planned && state.queued == 0, sourceLocation: sourceLocation)
    }

    /// Runs `count` workers with the same arguments at once; each must exit 0.
    static func together(_ count: Int, _ fixture: CLIFixture, _ arguments: [String]) async throws -> [HybridCLI.Outcome] {
        let outcomes = try await withThrowingTaskGroup(of: HybridCLI.Outcome.self) { group in
            for _ in 0..<count { group.addTask { try await fixture.hybrid(arguments) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for outcome in outcomes { #expect(outcome.status == 0, "\(outcome.output)") }
        return outcomes
    }

    @Test("four workers finish one run together: every key stored exactly once, each sent once, run completed")
    func fourWorkersShareOneRun() async throws {
        let fake = try FakeChatCompletionsServer { _, _ in .reply("The feeds were fine today.", delay: .milliseconds(20)) }
        defer { fake.stop() }
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        try await PostgresServerTrait.server().withDatabase { url in
            let arguments = try Self.evalArguments(fixture, fake: fake, db: url, run: "shared")
                + ["--concurrency", "2", "--claim-batch", "3"]
            let outcomes = try await Self.together(4, fixture, arguments)
            try await Self.expectFinished(url, run: "shared")
            // No lease expired (120 s by default), so no key was sent twice either.
            #expect(fake.requestCount == Self.planned)
            #expect(!outcomes.contains { $0.output.contains("postgres@") }, "the database URL's user and password stay out of output")
            // Reports read the shared store through the same protocols.
            let report = try await fixture.hybrid(["--db", url, "report", "shared", "--format", "json"])
            #expect(report.status == 0, "\(report.output)")
        }
    }

    @Test("a batch that runs longer than its lease is renewed, not handed to another worker: every key is sent once")
    func longBatchesKeepTheirLease() async throws {
        // A batch of 8 keys at concurrency 2 waits 4 × 800 ms on the model, well past the 2 s lease. The second
        // worker starts once the first batch's lease would have run out: without renewal it would claim those keys
        // (they come first in the queue) and send them again.
        let fake = try FakeChatCompletionsServer { _, _ in .reply("The feeds were fine today.", delay: .milliseconds(800)) }
        defer { fake.stop() }
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        try await PostgresServerTrait.server().withDatabase { url in
            let arguments = try Self.evalArguments(fixture, fake: fake, db: url, run: "slow")
                + ["--lease-seconds", "2", "--claim-batch", "8", "--concurrency", "2"]
            async let first = fixture.hybrid(arguments + ["--worker-id", "first"])
            let deadline = ContinuousClock.now + .seconds(60)
            while fake.requestCount < 1, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            try await Task.sleep(for: .milliseconds(2500))
            let second = try await fixture.hybrid(arguments + ["--worker-id", "second"])
            let firstOutcome = try await first
            #expect(firstOutcome.status == 0 && second.status == 0, "\(firstOutcome.output)\n\(second.output)")
            try await Self.expectFinished(url, run: "slow")
            #expect(fake.requestCount == Self.planned, "a key was generated (and billed) twice")
        }
    }

    @Test("a worker SIGKILLed holding leased keys loses nothing: they return when the lease expires and another worker finishes the run")
    func killedWorkerIsRecoveredFrom() async throws {
        // While `stalled`, every request hangs, so the first worker is stuck mid-batch holding its lease.
        let stalled = Atomic(true)
        let fake = try FakeChatCompletionsServer { _, _ in
            .reply("The feeds were fine today.", delay: stalled.load(ordering: .relaxed) ? .seconds(600) : .milliseconds(5))
        }
        defer { fake.stop() }
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        try await PostgresServerTrait.server().withDatabase { url in
            let arguments = try Self.evalArguments(fixture, fake: fake, db: url, run: "crash")
                + ["--lease-seconds", "2", "--claim-batch", "8", "--concurrency", "4"]
            let doomed = Process()
            doomed.executableURL = try HybridCLI.executable()
            doomed.arguments = arguments + ["--worker-id", "doomed"]
            doomed.currentDirectoryURL = fixture.directory
            doomed.standardOutput = FileHandle.nullDevice
            doomed.standardError = FileHandle.nullDevice
            try doomed.run()
            let pid = doomed.processIdentifier
            defer { kill(pid, SIGKILL) }
            // Kill it once it holds keys and is waiting on the model: the worst moment.
            let deadline = ContinuousClock.now + .seconds(60)
            while fake.requestCount < 4, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
            #expect(fake.requestCount >= 4, "the first worker never reached the model")
            kill(pid, SIGKILL)
            _ = try await BlockingWork.run { doomed.waitUntilExit() }
            let before = try await Self.check(url, run: "crash")
            #expect(before.rows == 0 && before.queued == Self.planned, "the killed worker stored nothing and its keys are still queued")

            stalled.store(false, ordering: .relaxed)
            let survivor = try await fixture.hybrid(arguments + ["--worker-id", "survivor"])
            #expect(survivor.status == 0, "\(survivor.output)")
            try await Self.expectFinished(url, run: "crash")
        }
    }
}
