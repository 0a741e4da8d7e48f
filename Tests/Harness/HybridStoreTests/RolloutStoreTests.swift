import Foundation
import HybridConfig
import HybridConfigTools
import HybridProjectTestSupport
import HybridRecommend
@testable import HybridStore
import HybridTestSupport
import Testing

/// A staged rollout's state on every backend: writes name the revision they replace, so of two processes only one
/// acts; a decision written but not published (a process killed in between) is published once by the next step;
/// and `hybrid rollout`'s driver advances a harmless stage and rolls back a harmful one over the store's events.
@Suite("Rollout state in the store", .postgresServer)
struct RolloutStoreTests {
    @Test("a write names the revision it replaces; a stale one changes nothing", arguments: StoreBackend.allCases)
    func writesAreConditionalOnTheRevision(_ backend: StoreBackend) async throws {
        try await backend.withStores { opened in
            let store = opened.fieldEvents
            #expect(try await store.rolloutRecord(feature: "summarize") == nil)
            let first = try #require(try await store.saveRollout(feature: "summarize", body: "{\"a\":1}", replacing: nil))
            #expect(first.revision == 1)
            #expect(try await store.saveRollout(feature: "summarize", body: "{\"b\":1}", replacing: nil) == nil, "a second start")
            #expect(try await store.saveRollout(feature: "summarize", body: "{\"c\":1}", replacing: 1)?.revision == 2)
            #expect(try await store.saveRollout(feature: "summarize", body: "{\"d\":1}", replacing: 1) == nil, "a stale revision")
            let read = try await opened.reopenFieldEvents().rolloutRecord(feature: "summarize")
            #expect(read == RolloutRecord(feature: "summarize", revision: 2, body: "{\"c\":1}"))
            _ = try await store.saveRollout(feature: "classify", body: "{}", replacing: nil)
            #expect(try await store.rolloutRecords().map(\.feature) == ["classify", "summarize"])
        }
    }

    @Test("of 12 writers replacing the same revision at once, exactly one lands", arguments: StoreBackend.allCases)
    func oneOfManyConcurrentWritersLands(_ backend: StoreBackend) async throws {
        try await backend.withStores { opened in
            _ = try await opened.fieldEvents.saveRollout(feature: "f", body: "{}", replacing: nil)
            var stores: [any FieldEventStore] = []
            for _ in 0..<12 { stores.append(try await opened.reopenFieldEvents()) }
            let landed = try await withThrowingTaskGroup(of: Bool.self) { group in
                for (index, store) in stores.enumerated() {
                    group.addTask { try await store.saveRollout(feature: "f", body: "{\"w\":\(index)}", replacing: 1) != nil }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(landed == 1)
            #expect(try await opened.fieldEvents.rolloutRecord(feature: "f")?.revision == 2)
        }
    }

    @Test("start publishes the first stage; a harmless stage advances; a harmful one rolls back to 0 %", arguments: StoreBackend.allCases)
    func theDriverAdvancesAndRollsBack(_ backend: StoreBackend) async throws {
        try await backend.withStores { opened in
            try await withTemporaryDirectory { directory in
                let rollout = try await RolloutFixture(opened, directory: directory)
                let start = try await rollout.driver.start(feature: "summarize", destination: rollout.destination)
                #expect(start.action == .start && start.percentage == 10 && start.configVersion == 2)
                #expect(try rollout.publishedPercentage() == 10)

                try await rollout.sendEvents(version: 2, armFailures: 0)
                let advance = try await rollout.driver.step(feature: "summarize")
                #expect(advance.action == .advance && advance.percentage == 50 && advance.configVersion == 3, "\(advance.reason)")
                #expect(try rollout.publishedPercentage() == 50)

                try await rollout.sendEvents(version: 3, armFailures: 4)
                let rollBack = try await rollout.driver.step(feature: "summarize")
                #expect(rollBack.action == .rollBack && rollBack.configVersion == 4, "\(rollBack.reason)")
                #expect(rollBack.guardrails.first { $0.metric == "errorRate" }?.breached == true)
                #expect(try rollout.publishedPercentage() == 0)
                let state = try #require(try await rollout.driver.state(feature: "summarize"))
                #expect(state.status == .rolledBack && state.decisions.map(\.action) == [.start, .advance, .rollBack])
                #expect(try await rollout.driver.step(feature: "summarize").action == .hold, "an ended rollout only holds")
            }
        }
    }

    @Test("a decision written but never published (the process killed before the upload) is published once by the next step", arguments: StoreBackend.allCases)
    func aKilledStepIsFinishedOnce(_ backend: StoreBackend) async throws {
        try await backend.withStores { opened in
            try await withTemporaryDirectory { directory in
                let rollout = try await RolloutFixture(opened, directory: directory)
                try await rollout.startWithAHarmlessFirstStage()
                // What a step writes before it uploads: the advance as pending. Then the process dies.
                var dying = rollout.driver
                dying.publisher = ConfigPublisher(transport: ScriptedHTTPTransport([]), snapshots: nil)
                try await rollout.leavePending(using: dying)
                #expect(try rollout.publishedPercentage() == 10, "nothing was published")
                let pending = try #require(try await rollout.driver.state(feature: "summarize")?.pending)

                let finished = try await rollout.driver.step(feature: "summarize")
                #expect(finished == pending.decision, "the next step finishes the decision instead of deciding again")
                #expect(try rollout.publishedPercentage() == 50)
                let versions = try await opened.snapshots.snapshots(source: rollout.destination).map(\.version)
                #expect(versions.sorted() == [1, 2, 3], "each version published once")
                let state = try #require(try await rollout.driver.state(feature: "summarize"))
                #expect(state.pending == nil && state.percentage == 50 && state.stageVersion == 3)
                #expect(try await rollout.driver.step(feature: "summarize").action == .hold, "the new stage starts from nothing")
            }
        }
    }

    @Test("two processes stepping at once publish the next stage once", arguments: StoreBackend.allCases)
    func twoStepsAtOncePublishOnce(_ backend: StoreBackend) async throws {
        try await backend.withStores { opened in
            try await withTemporaryDirectory { directory in
                let rollout = try await RolloutFixture(opened, directory: directory)
                try await rollout.startWithAHarmlessFirstStage()
                var second = rollout.driver
                second.store = try await opened.reopenFieldEvents()
                async let one = Result { try await rollout.driver.step(feature: "summarize") }
                async let two = Result { try await second.step(feature: "summarize") }
                let results = await [one, two]
                let advanced = results.compactMap { try? $0.get() }.filter { $0.action == .advance }
                #expect(advanced.count == 1, "\(results)")
                let versions = try await opened.snapshots.snapshots(source: rollout.destination).map(\.version)
                #expect(versions.sorted() == [1, 2, 3])
                #expect(try await rollout.driver.state(feature: "summarize")?.decisions.map(\.action) == [.start, .advance])
            }
        }
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}

/// One feature's rollout over a backend's stores: the config (bundled defaults with a plan: 10, 50, 100 %, no
/// minimum time, 20 installs per group, error rate guarded) published to a file, and events from 400 installs.
struct RolloutFixture {
    var driver: RolloutDriver
    let destination: String
    let store: any FieldEventStore
    let file: URL

    init(_ opened: StoreBackend.Opened, directory: TemporaryDirectory) async throws {
        file = directory.url.appendingPathComponent("hybrid.json")
        destination = file.absoluteString
        store = opened.fieldEvents
        var document = try HybridConfigDocument.bundledDefaults().document
        document.version = 1
        document.rollouts["summarize"] = RolloutConfig(
            seed: "rollout-test", arms: [RolloutArm(name: "bullet", percentage: 0, variant: "bullet")],
            plan: RolloutPlan(stages: [10, 50, 100], minStageHours: 0, minInstallsPerArm: 20, guardrails: [.init(metric: .errorRate)]))
        let publisher = ConfigPublisher(transport: ScriptedHTTPTransport([]), snapshots: opened.snapshots)
        _ = try await publisher.publish(document.encodedJSON(), to: destination)
        driver = RolloutDriver(store: store, publisher: publisher, options: ConfigPublisher.Options())
    }

    /// Starts the rollout (config v2, 10 %) and sends that stage harmless events, enough to advance.
    func startWithAHarmlessFirstStage() async throws {
        _ = try await driver.start(feature: "summarize", destination: destination)
        try await sendEvents(version: 2, armFailures: 0)
    }

    /// The arm's percentage in the published file.
    func publishedPercentage() throws -> Double? {
        let document = try ConfigValidator.load(try Data(contentsOf: file)).document
        return document.rollouts["summarize"]?.arms.first?.percentage
    }

    /// Five events from each of 400 installs under config `version`, arm as the published config assigns it; each
    /// arm install fails `armFailures` of its five, the control fails none.
    func sendEvents(version: Int, armFailures: Int) async throws {
        let document = try ConfigValidator.load(try Data(contentsOf: file)).document
        var events: [FieldEventRecord] = []
        for install in 0..<400 {
            let id = "install-\(install)"
            let arm = document.assignment(feature: "summarize", installId: id)?.arm
            for n in 0..<5 {
                let failed = arm != nil && n < armFailures
                events.append(FieldEventRecord(
                    eventID: "v\(version)-\(id)-\(n)", occurredAt: Date(timeIntervalSince1970: 1_800_000_000 + Double(n)), installID: id,
                    feature: "summarize", configVersion: version, rolloutArm: arm, bucket: 1, variant: arm == nil ? "concise" : "bullet",
                    servedBy: "local", servedTier: "on-device", outcome: failed ? "failed" : "served", errorKind: failed ? "timeout" : nil,
                    attemptCount: 1, fellBack: false, ttftMs: 100, latencyMs: 400 + Double(n), inputTokens: 10, outputTokens: 20,
                    tokensEstimated: false, costUSD: 0, checksTotal: 1, failedChecks: [], cacheHit: false, labels: [:]))
            }
        }
        try await store.insert(events)
    }

    /// Runs a step whose upload fails, as a process killed between writing its decision and publishing leaves it.
    func leavePending(using dying: RolloutDriver) async throws {
        // A publisher without the snapshot history and with an unknown ETag: the conditional upload is refused, so
        // nothing reaches the destination and the pending decision stays, as after a kill.
        var options = ConfigPublisher.Options()
        options.ifMatch = "\"not-the-current-etag\""
        var refused = dying
        refused.options = options
        await #expect(throws: RolloutError.self) { try await refused.step(feature: "summarize") }
    }
}
