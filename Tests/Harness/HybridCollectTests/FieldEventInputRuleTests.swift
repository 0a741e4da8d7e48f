import Foundation
import HybridCollect
import HybridCore
import HybridStore
import HybridTestSupport
import Testing

/// A field event's `inputRule` (the input rule that chose its route) survives every way into the store: the
/// collector's HTTP batches and `hybrid ingest`'s JSON Lines, so the field report can split a feature by rule.
@Suite struct FieldEventInputRuleTests {
    static func events() -> [RouteEvent] {
        var ruled = CollectorServerTests.event("ruled")
        ruled.inputRule = "long-inputs"
        return [ruled, CollectorServerTests.event("own")]
    }

    @Test func theCollectorStoresTheRuleAndNilForTheOwnRoute() async throws {
        let running = try await CollectorServerTests.start()
        defer { running.task.cancel() }
        let (status, _) = try await CollectorServerTests.post(try CollectorServerTests.batch(Self.events()), to: running.endpoint)
        #expect(status == 200)
        let stored = try await running.store.events(run: "field-summarize-v7")
        let rules = Dictionary(uniqueKeysWithValues: stored.map { ($0.eventID, $0.inputRule ?? "own route") })
        #expect(rules == ["ruled": "long-inputs", "own": "own route"])
    }

    @Test func jsonLinesIngestKeepsTheRule() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.url.appendingPathComponent("events.jsonl")
            let lines = try Self.events().map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
            let store = SQLiteFieldEventStore(database: try HybridDatabase.inMemory())
            #expect(try await JSONLinesIngest(ingestor: FieldEventIngestor(store: store)).ingest(path: file.path).accepted == 2)
            #expect(try await store.events(run: "field-summarize-v7").compactMap(\.inputRule) == ["long-inputs"])
        }
    }

    @Test func aRuleNameTheStoreCannotKeepIsRefusedByName() {
        var event = CollectorServerTests.event("bad")
        event.inputRule = "long\u{0}inputs"
        guard case .failure(let rejection) = FieldEventRecord.validated(event) else {
            Issue.record("a NUL in inputRule was accepted")
            return
        }
        #expect(rejection.reasons == ["inputRule: has control character U+0000"])
    }
}
