import Foundation
import HybridCore
import HybridTestSupport
import Testing
@testable import HybridStore
import HybridProjectTestSupport

/// The `FieldEventStore` contract, checked on every backend (`StoreBackend`): collectors, field reports and
/// `recommend` must see the same events whether `--db` is a SQLite file or PostgreSQL.
@Suite("FieldEventStore conformance", .postgresServer)
struct FieldEventStoreConformanceTests {
    @Test("events round-trip whole into one run per feature and config version, in id order", arguments: StoreBackend.allCases)
    func eventsRoundTripIntoOneRunPerFeatureAndVersion(_ backend: StoreBackend) async throws {
        try await backend.withStores { opened in
            let store = opened.fieldEvents
            var minimal = Fixtures.fieldEvent("e0", arm: nil)
            (minimal.bucket, minimal.servedBy, minimal.servedTier, minimal.ttftMs) = (nil, nil, nil, nil)
            (minimal.failedChecks, minimal.labels, minimal.configHash) = ([], [:], "abc")
            var hedged = Fixtures.fieldEvent("e2")
            hedged.hedged = true
            hedged.costUnknown = true
            hedged.inputRule = "long-inputs"
            let outcome = try await store.insert([hedged, minimal, Fixtures.fieldEvent("e3", version: 4)])
            #expect(outcome == FieldEventInsertOutcome(accepted: 3, duplicates: 0, runIDs: ["field-summarize-v2-v3", "field-summarize-v2-v4"]))
            let reopened = try await opened.reopenFieldEvents()
            #expect(try await reopened.events(run: "field-summarize-v2-v3") == [minimal, hedged])
            #expect(try await reopened.isFieldRun("field-summarize-v2-v4"))
            #expect(try await !reopened.isFieldRun("missing"))
            #expect(Set(try await reopened.fieldRunIDs()) == ["field-summarize-v2-v3", "field-summarize-v2-v4"])
        }
    }

    @Test("looks are kept per event count, oldest first, and a second look at the same count adds nothing", arguments: StoreBackend.allCases)
    func looksAreKept(_ backend: StoreBackend) async throws {
        try await backend.withStores { opened in
            let store = opened.fieldEvents
            func look(_ events: Int, p: Double) -> FieldLook {
                FieldLook(
                    runID: "field-summarize-v3", events: events, recordedAt: Date(timeIntervalSince1970: Double(1_800_000_000 + events)),
                    entries: [FieldLook.Entry(arm: "treat", control: "default", metric: "adherence", segment: "deviceClass=a b",
                                              pValue: p, lower: -0.2, upper: -0.01)])
            }
            try await store.recordLook(look(900, p: 0.2))
            try await store.recordLook(look(300, p: 0.01))
            try await store.recordLook(look(300, p: 0.5))  // the same data read again
            let kept = try await opened.reopenFieldEvents().looks(run: "field-summarize-v3")
            #expect(kept == [look(300, p: 0.01), look(900, p: 0.2)])
            #expect(try await store.looks(run: "field-other-v1").isEmpty)
        }
    }

    @Test("a planned look keeps its design, look index, fraction and z beside looks kept before planned designs", arguments: StoreBackend.allCases)
    func plannedLooksRoundTrip(_ backend: StoreBackend) async throws {
        try await backend.withStores { opened in
            let store = opened.fieldEvents
            let entry = FieldLook.Entry(
                arm: "treat", control: "default", metric: "adherence", segment: nil, pValue: 0.3, lower: -0.1, upper: 0.2)
            var planned = entry
            planned.z = -2.75
            let old = FieldLook(runID: "field-plan-v1", events: 100, recordedAt: Date(timeIntervalSince1970: 1_800_000_000), entries: [entry])
            let plan = FieldLook.Plan(
                design: "planned: 7 looks over 7 days, obrienFleming spending", since: Date(timeIntervalSince1970: 1_800_086_400),
                look: 3, fraction: 3.0 / 7)
            let new = FieldLook(
                runID: "field-plan-v1", events: 300, recordedAt: Date(timeIntervalSince1970: 1_800_259_200), entries: [planned], plan: plan)
            var offPlan = new
            (offPlan.events, offPlan.entries) = (400, [entry])
            offPlan.plan = FieldLook.Plan(design: plan.design, since: plan.since, look: nil, fraction: nil)
            for look in [old, new, offPlan] { try await store.recordLook(look) }
            #expect(try await opened.reopenFieldEvents().looks(run: "field-plan-v1") == [old, new, offPlan])
        }
    }

    @Test("labels with quotes and unicode read back equal", arguments: StoreBackend.allCases)
    func labelsRoundTrip(_ backend: StoreBackend) async throws {
        try await backend.withStores { opened in
            var event = Fixtures.fieldEvent("e1")
            event.labels = ["os": "iOS \"18\"", "device": "Pixel ⑧\nβ", "empty": ""]
            try await opened.fieldEvents.insert([event])
            #expect(try await opened.reopenFieldEvents().events(run: event.runID) == [event])
        }
    }

    @Test("a re-sent batch changes nothing and its events are counted as duplicates", arguments: StoreBackend.allCases)
    func aReSentBatchChangesNothing(_ backend: StoreBackend) async throws {
        try await backend.withStores { opened in
            let store = opened.fieldEvents
            try await store.insert([Fixtures.fieldEvent("e1"), Fixtures.fieldEvent("e2")])
            var changed = Fixtures.fieldEvent("e1")
            changed.latencyMs = 999
            let again = try await store.insert([Fixtures.fieldEvent("e2"), changed, Fixtures.fieldEvent("e5")])
            #expect(again.accepted == 1 && again.duplicates == 2)
            #expect(try await store.eventCount(run: "field-summarize-v2-v3") == 3)
            #expect(try await store.events(run: "field-summarize-v2-v3").map(\.latencyMs) == [80, 80, 80])
        }
    }

    @Test("a re-sent event is found whatever else arrived meanwhile", arguments: StoreBackend.allCases)
    func aReSentEventIsFoundWhateverElseArrivedMeanwhile(_ backend: StoreBackend) async throws {
        try await backend.withStores { opened in
            let store = opened.fieldEvents
            let first = (0..<50).map { Fixtures.fieldEvent("a\($0)", install: "i\($0 % 3)") }
            try await store.insert(first)
            try await store.insert((0..<50).map { Fixtures.fieldEvent("b\($0)", install: "i\($0 % 4)") })
            let again = try await store.insert(first.reversed())
            #expect(again.accepted == 0 && again.duplicates == 50)
            #expect(try await store.eventCount(run: "field-summarize-v2-v3") == 100)
        }
    }

    @Test("events come back in byte order of their ids, as SQLite sorts", arguments: StoreBackend.allCases)
    func eventsComeBackInIDOrder(_ backend: StoreBackend) async throws {
        try await backend.withStores { opened in
            let ids = ["b", "B", "a10", "a9", "_x", "é", "Z"]
            try await opened.fieldEvents.insert(ids.map { Fixtures.fieldEvent($0) })
            let read = try await opened.fieldEvents.events(run: "field-summarize-v2-v3").map(\.eventID)
            #expect(read == ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        }
    }

    @Test("the pre-period holds only earlier versions of the same feature", arguments: StoreBackend.allCases)
    func eventsBeforeHoldsOnlyEarlierVersionsOfTheSameFeature(_ backend: StoreBackend) async throws {
        try await backend.withStores { opened in
            var otherFeature = Fixtures.fieldEvent("x1", version: 2)
            otherFeature.feature = "translate"
            try await opened.fieldEvents.insert([
                Fixtures.fieldEvent("v2a", version: 2), Fixtures.fieldEvent("v1a", version: 1), otherFeature,
                Fixtures.fieldEvent("v3a", version: 3), Fixtures.fieldEvent("v4a", version: 4),
            ])
            let store = try await opened.reopenFieldEvents()
            #expect(try await store.eventsBefore(run: "field-summarize-v2-v3").map(\.eventID) == ["v1a", "v2a"])
            #expect(try await store.eventsBefore(run: "field-summarize-v2-v1").isEmpty)
            #expect(try await store.eventsBefore(run: "not-a-field-run").isEmpty)
        }
    }

    @Test("two writers inserting overlapping batches at once store every event exactly once", arguments: StoreBackend.allCases)
    func concurrentOverlappingInsertsStoreEachEventOnce(_ backend: StoreBackend) async throws {
        try await backend.withStores { opened in
            let second = try await opened.reopenFieldEvents()
            // Overlapping ranges in opposite orders, across two runs: the worst case for lock ordering.
            let batches = (0..<8).map { round in
                (0..<200).map { index in
                    // A re-sent event is the same event: same install, time and run as its first copy.
                    let number = round * 100 + index
                    return Fixtures.fieldEvent("e\(number)", install: "i\(number % 7)", version: 3 + number % 2)
                }
            }
            let outcomes = try await withThrowingTaskGroup(of: FieldEventInsertOutcome.self) { group in
                for (index, batch) in batches.enumerated() {
                    let store = index.isMultiple(of: 2) ? opened.fieldEvents : second
                    let events = index.isMultiple(of: 3) ? Array(batch.reversed()) : batch
                    group.addTask { try await store.insert(events) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let distinct = Set(batches.joined().map(\.eventID)).count
            #expect(outcomes.map(\.accepted).reduce(0, +) == distinct)
            #expect(outcomes.map(\.duplicates).reduce(0, +) == batches.count * 200 - distinct)
            let stored = try await opened.fieldEvents.events(run: "field-summarize-v2-v3")
                + opened.fieldEvents.events(run: "field-summarize-v2-v4")
            #expect(stored.count == distinct && Set(stored.map(\.eventID)).count == distinct)
            #expect(Set(try await second.fieldRunIDs()) == ["field-summarize-v2-v3", "field-summarize-v2-v4"])
        }
    }
}
