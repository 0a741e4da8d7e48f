import Foundation
import HybridCore
import HybridCurl
import HybridPostgres
import HybridProjectTestSupport
import HybridReport
import HybridStore
import HybridTestSupport
import HybridTransport
import Testing

/// The real `hybrid collect` process fed seeded mutations of valid batches (types, members, odd strings, numbers at
/// and past their limits, corrupt bytes, cut bodies), on a SQLite file and on PostgreSQL: every answer is 200, 400 or
/// 413, the process stays up, and exactly the acknowledged events are stored. One event the store cannot keep must
/// never fail its batch (a 5xx, which an app's uploader retries, would block every event queued behind it).
@Suite(.postgresServer) struct CollectorFuzzTests {
    /// 1,000 in `make test` (each mutation kind many times over); `HYBRID_FUZZ_BODIES=20000 swift test --filter
    /// CollectorFuzzTests` for a longer run.
    static let bodies = ProcessInfo.processInfo.environment["HYBRID_FUZZ_BODIES"].flatMap { Int($0) } ?? 1_000

    @Test(arguments: ["sqlite", "postgres"])
    func mutatedBatchesNeverJamTheCollector(_ backend: String) async throws {
        try await withTemporaryDirectory { directory in
            if backend == "sqlite" {
                let path = directory.url.appendingPathComponent("field.sqlite").path
                try await Self.fuzz(db: path, in: directory.url) { try SQLiteFieldEventStore(path: path) }
            } else {
                try await PostgresServerTrait.server().withDatabase { url in
                    try await Self.fuzz(db: url, in: directory.url) { PostgresFieldEventStore(database: try await PostgresDatabase(url: url)) }
                }
            }
        }
    }

    static func fuzz(db: String, in directory: URL, store: () async throws -> any FieldEventStore) async throws {
        let collector = try await HybridCLI.startServer(
            ["collect", "--listen", "127.0.0.1:0", "--token-env", "FUZZ_TOKEN", "--db", db, "--max-body-bytes", "1048576"], in: directory,
            environment: ["FUZZ_TOKEN": "fuzz"])
        defer { collector.stop() }
        var mutator = BatchMutator(seed: 48)
        var statuses: [Int: Int] = [:]
        var acknowledged = 0
        for index in 0..<bodies {
            let body = mutator.body(index)
            let (status, text) = try await post(body, to: collector.url)
            statuses[status, default: 0] += 1
            #expect([200, 400, 413].contains(status), "body \(index) answered \(status): \(text.prefix(300))")
            if status == 200, let answer = try? JSONDecoder().decode(RouteEventBatchResponse.self, from: Data(text.utf8)) {
                acknowledged += answer.accepted
            }
        }
        // Alive: a valid batch is still taken.
        let (status, _) = try await post(mutator.body(-1), to: collector.url)
        #expect(status == 200)
        let opened = try await store()
        var stored = 0
        for run in try await opened.fieldRunIDs() { stored += try await opened.eventCount(run: run) }
        print("collector fuzz on \(db.hasPrefix("postgres") ? "PostgreSQL" : "SQLite"): \(bodies) bodies, answers \(statuses.sorted { $0.key < $1.key }), \(acknowledged) events acknowledged, \(stored) stored")
        // The last valid batch's events were acknowledged too (fresh ids: `body(-1)` uses its own).
        #expect(stored == acknowledged + BatchMutator.aliveEvents, "stored \(stored), acknowledged \(acknowledged)")
    }

    static func post(_ body: Data, to endpoint: String) async throws -> (Int, String) {
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        headers.add(name: "Authorization", value: "Bearer fuzz")
        let response = try await CurlTransport.shared.execute(HTTPRequest(method: "POST", url: endpoint, headers: headers, body: body))
        var data = Data()
        for try await chunk in response.body { data.append(chunk) }
        return (response.status, String(decoding: data, as: UTF8.self))
    }
}

/// Seeded mutations of valid `RouteEventBatch` bodies.
struct BatchMutator {
    static let aliveEvents = 2
    var rng: SplitMix64

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func uniform() -> Double { rng.nextUnit() }
    mutating func pick<T>(_ items: [T]) -> T { items[Int(rng.next() % UInt64(items.count))] }

    /// A valid event with a fresh id.
    func event(_ id: String) -> RouteEvent {
        RouteEvent(
            id: id, timestamp: Date(timeIntervalSince1970: 1_763_850_000), installId: "install-\(id.utf8.count)",
            feature: "summarize", configVersion: 7, variant: "concise", rolloutArm: "brief", bucket: 12, servedBy: "cloud",
            servedTier: .thirdParty, outcome: .served,
            attempts: [.init(model: "cloud", tier: .thirdParty, outcome: .served, startMs: 0, durationMs: 40)],
            latencyMs: 40, inputTokens: 12, outputTokens: 4, costUSD: 0.00001,
            checks: [.init(name: "max_words", passed: true)], labels: ["deviceClass": "phone"])
    }

    /// Body `index` (-1: a valid batch of `aliveEvents` events).
    mutating func body(_ index: Int) -> Data {
        let count = index < 0 ? Self.aliveEvents : 1 + Int(rng.next() % 4)
        let events = (0..<count).map { event("ev-\(index)-\($0)") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let valid = (try? encoder.encode(RouteEventBatch(events: events))) ?? Data()
        guard index >= 0 else { return valid }
        switch rng.next() % 8 {
        case 0: return valid
        case 1, 2, 3: return structural(valid)
        case 4: return oddString(valid)
        case 5: return corrupt(valid)
        case 6: return Data(valid.prefix(Int(rng.next() % UInt64(max(1, valid.count)))))
        default: return huge(valid)
        }
    }

    /// A member of one event removed, or given a value of another type or at a number's limit.
    mutating func structural(_ valid: Data) -> Data {
        guard var object = try? JSONSerialization.jsonObject(with: valid) as? [String: Any],
            var events = object["events"] as? [[String: Any]], !events.isEmpty
        else { return valid }
        let target = Int(rng.next() % UInt64(events.count))
        let keys = events[target].keys.sorted()
        let key = pick(keys)
        let values: [Any] = [
            NSNull(), "text", "", 0, -1, 1.5, true, [1, 2], ["a": 1], 2_147_483_648, 9_223_372_036_854_775_807,
            -9_223_372_036_854_775_808, 1e308, -1e308, Double.leastNonzeroMagnitude, 10_000, 9_999,
        ]
        if uniform() < 0.25 { events[target].removeValue(forKey: key) } else { events[target][key] = pick(values) }
        object["events"] = events
        // Sorted keys: a dictionary's order differs from run to run, and the mutations must not.
        return (try? JSONSerialization.data(withJSONObject: object, options: .sortedKeys)) ?? valid
    }

    /// A string member set to text a store may refuse: control characters, NUL, a lone surrogate, very long text.
    mutating func oddString(_ valid: Data) -> Data {
        let text = String(decoding: valid, as: UTF8.self)
        let members = ["\"feature\":\"summarize\"", "\"variant\":\"concise\"", "\"deviceClass\":\"phone\"", "\"name\":\"max_words\"", "\"rolloutArm\":\"brief\"", "\"servedBy\":\"cloud\""]
        let member = pick(members)
        let name = member.split(separator: ":")[0]
        let odd = pick([
            "\\u0000", "\\u001f", "a\\nb", "\\u007f", "\\u0085", "\\ud800", "\\udfff", "\\ud83d\\ude00", String(repeating: "x", count: 5_000),
            "\\\\", "\\\"", "💥", "\\u202e",
        ])
        return Data(text.replacingOccurrences(of: member, with: "\(name):\"\(odd)\"").utf8)
    }

    /// A few bytes overwritten with random ones.
    mutating func corrupt(_ valid: Data) -> Data {
        var bytes = [UInt8](valid)
        for _ in 0..<(1 + Int(rng.next() % 4)) where !bytes.isEmpty {
            bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next())
        }
        return Data(bytes)
    }

    /// A batch past the body limit, or a label past its length.
    mutating func huge(_ valid: Data) -> Data {
        let text = String(decoding: valid, as: UTF8.self)
        let size = uniform() < 0.5 ? 300 : 2_000_000
        return Data(text.replacingOccurrences(of: "\"deviceClass\":\"phone\"", with: "\"deviceClass\":\"\(String(repeating: "y", count: size))\"").utf8)
    }
}
