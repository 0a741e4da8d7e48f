import Foundation
import HybridConfig
import HybridConfigTools
import HybridPostgres
import HybridProjectTestSupport
import HybridRecommend
import HybridStore
import HybridTestSupport
import Synchronization
import Testing

/// `hybrid rollout step` killed with SIGKILL while it uploads the next stage, on SQLite and on PostgreSQL: the
/// upload never reached the host, or reached it and the process died before recording it. Either way the next step
/// finishes that decision (publishing it once at most) instead of deciding again.
@Suite("hybrid rollout killed mid-publish", .postgresServer, .serialized)
struct RolloutKillTests {
    enum Backend: String, CaseIterable { case sqlite, postgres }

    @Test("killed before the upload landed: the next step publishes it, once", arguments: Backend.allCases)
    func killedBeforeTheUploadLanded(_ backend: Backend) async throws {
        try await Self.killMidPublish(backend, hostStoresBeforeHanging: false)
    }

    @Test("killed after the upload landed: the next step records it and publishes nothing", arguments: Backend.allCases)
    func killedAfterTheUploadLanded(_ backend: Backend) async throws {
        try await Self.killMidPublish(backend, hostStoresBeforeHanging: true)
    }

    static func killMidPublish(_ backend: Backend, hostStoresBeforeHanging: Bool) async throws {
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let host = try HangingConfigHost()
        defer { host.stop() }
        try await withDatabase(backend, fixture: fixture) { db, openStore in
            let destination = host.url
            var document = try HybridConfigDocument.bundledDefaults().document
            document.version = 1
            document.rollouts["summarize"] = RolloutConfig(
                seed: "kill", arms: [RolloutArm(name: "bullet", percentage: 0, variant: "bullet")],
                plan: RolloutPlan(stages: [10, 50, 100], minStageHours: 0, minInstallsPerArm: 20, guardrails: [.init(metric: .errorRate)]))
            let v1 = fixture.directory.appendingPathComponent("v1.json")
            try document.encodedJSON().write(to: v1)
            let publish = try await fixture.hybrid(["config", "publish", v1.path, "--to", destination, "--db", db])
            #expect(publish.status == 0, "\(publish.output)")
            let start = try await fixture.hybrid(["rollout", "start", "summarize", "--to", destination, "--db", db])
            #expect(start.status == 0, "\(start.output)")
            let store = try await openStore()  // after `config publish` created and migrated the database
            try await store.insert(Self.events(for: try host.document()))

            host.hang(storing: hostStoresBeforeHanging)
            // Killed the moment its upload is held by the host (a minute at most, if it never comes).
            let killed = try await fixture.hybrid(
                ["rollout", "step", "summarize", "--to", destination, "--db", db], killAfter: .seconds(60),
                killWhen: { host.isHoldingAnUpload })
            #expect(killed.status != 0, "the step was killed: \(killed.output)")
            let pending = try #require(try await Self.state(store).pending, "the decision was written before the upload")
            #expect(pending.decision.action == .advance && pending.decision.configVersion == 3)

            host.stopHanging()
            let finished = try await fixture.hybrid(["rollout", "step", "summarize", "--to", destination, "--db", db])
            #expect(finished.status == 0, "\(finished.output)")
            #expect(finished.output.contains("advance to 50 % (config v3"), "\(finished.output)")
            let state = try await Self.state(store)
            #expect(state.pending == nil && state.percentage == 50 && state.stageVersion == 3)
            #expect(state.decisions.map(\.action) == [.start, .advance])
            #expect(host.storedVersions == [1, 2, 3], "every version stored once: \(host.storedVersions)")
        }
    }

    static func state(_ store: any FieldEventStore) async throws -> RolloutState {
        try RolloutState.decoded(try #require(try await store.rolloutRecord(feature: "summarize")).body)
    }

    /// The CLI's `--db`, and a way to open an in-process store over the same database once the CLI created it.
    static func withDatabase(
        _ backend: Backend, fixture: CLIFixture, _ body: (String, () async throws -> any FieldEventStore) async throws -> Void
    ) async throws {
        switch backend {
        case .sqlite:
            try await body(fixture.database, { try SQLiteFieldEventStore(path: fixture.database) })
        case .postgres:
            try await PostgresServerTrait.server().withDatabase { url in
                let database = try await PostgresDatabase(url: url)
                defer { database.close() }
                try await body(url, { PostgresFieldEventStore(database: database) })
            }
        }
    }

    /// Three harmless events from each of 300 installs under config v2, arm as v2 assigns it.
    static func events(for document: HybridConfigDocument) -> [FieldEventRecord] {
        (0..<300).flatMap { install -> [FieldEventRecord] in
            let id = "install-\(install)"
            let arm = document.assignment(feature: "summarize", installId: id)?.arm
            return (0..<3).map { n in
                FieldEventRecord(
                    eventID: "\(id)-\(n)", occurredAt: Date(timeIntervalSince1970: 1_800_000_000 + Double(n)), installID: id,
                    feature: "summarize", configVersion: document.version, rolloutArm: arm, bucket: 1,
                    variant: arm == nil ? "concise" : "bullet", servedBy: "local", servedTier: "on-device", outcome: "served",
                    errorKind: nil, attemptCount: 1, fellBack: false, ttftMs: 50, latencyMs: 300, inputTokens: 10, outputTokens: 20,
                    tokensEstimated: false, costUSD: 0, checksTotal: 1, failedChecks: [], cacheHit: false, labels: [:])
            }
        }
    }
}

/// A config host on loopback (GET with an ETag, PUT with `If-Match`) whose uploads can be made to hang: before
/// the body is stored, or after.
final class HangingConfigHost: Sendable {
    private struct State {
        var body = Data()
        var etag = ""
        var versions: [Int] = []
        var hang: Bool? = nil  // nil: answer; false: hang without storing; true: store, then hang
        var holding = false  // an upload arrived while hanging and is held unanswered
    }

    /// Shared with the server's handler, which must not capture `self` before init ends.
    private final class Box: Sendable {
        let value = Mutex(State())
        func withLock<T>(_ body: (inout State) -> T) -> T { value.withLock { body(&$0) } }
    }

    private let state = Box()
    private let server: LoopbackHTTPServer

    init() throws {
        let state = self.state
        server = try LoopbackHTTPServer { request in
            state.withLock { s -> ScriptedResponse in
                switch request.method {
                case "GET":
                    guard !s.body.isEmpty else { return .text(status: 404, "nothing published") }
                    var response = ScriptedResponse.data(s.body, contentType: "application/json")
                    response.headers.append((name: "ETag", value: s.etag))
                    return response
                case "PUT":
                    if let ifMatch = request.header("If-Match"), ifMatch != s.etag {
                        return ScriptedResponse(status: 412, headers: [("ETag", s.etag)])
                    }
                    let hang = s.hang
                    if hang != false {
                        s.body = request.body
                        s.etag = "\"e\(s.versions.count + 1)\""
                        let version = (try? ConfigValidator.load(request.body).document.version) ?? -1
                        s.versions.append(version)
                    }
                    var response = ScriptedResponse(status: 204, headers: [("ETag", s.etag)])
                    if hang != nil {
                        response.headDelay = .seconds(120)
                        s.holding = true
                    }
                    return response
                default:
                    return .text(status: 405, "method not allowed")
                }
            }
        }
    }

    var url: String { server.baseURL + "/hybrid.json" }
    var storedVersions: [Int] { state.withLock { $0.versions } }
    func document() throws -> HybridConfigDocument { try ConfigValidator.load(state.withLock { $0.body }).document }
    func hang(storing: Bool) { state.withLock { $0.hang = storing } }
    /// Whether an upload is being held (the host received it and has not answered).
    var isHoldingAnUpload: Bool { state.withLock { $0.holding } }
    func stopHanging() {
        state.withLock {
            $0.hang = nil
            $0.holding = false
        }
    }
    func stop() { server.stop() }
}
