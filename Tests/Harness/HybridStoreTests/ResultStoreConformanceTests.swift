import Foundation
import HybridCore
import HybridTestSupport
import HybridTesting
import Testing
@testable import HybridStore
import HybridProjectTestSupport

/// The `ResultStore` contract, checked on every backend (`StoreBackend`): SQLite and PostgreSQL must store and
/// answer alike, so reports, `compare` and `recommend` read either.
@Suite("ResultStore conformance", .postgresServer)
struct ResultStoreConformanceTests {
    @Test("a result with every field set reads back equal, through both the array and the streaming read", arguments: StoreBackend.allCases)
    func fullResultRoundTrips(_ backend: StoreBackend) async throws {
        try await backend.withStore { (store, opened) async throws in
            let full = Fixtures.fullResult()
            let minimal = Fixtures.minimalResult(caseID: "case-2")
            #expect(try await store.insertResult(full))
            #expect(try await store.insertResult(minimal))

            #expect(try await store.results(run: "run-1") == [full, minimal])
            var streamed: [ResultRecord] = []
            try await store.forEachResult(run: "run-1") { streamed.append($0) }
            #expect(streamed == [full, minimal])

            // And from a fresh connection, so nothing came from a cache in memory.
            let reopened = try await opened.reopen()
            #expect(try await reopened.results(run: "run-1") == [full, minimal])
        }
    }

    @Test("a run's config is kept once per hash and read back from a fresh connection", arguments: StoreBackend.allCases)
    func configsRoundTrip(_ backend: StoreBackend) async throws {
        try await backend.withStore { (store, opened) async throws in
            let body = #"{"version": 3, "features": {"crate": {}}}"#
            try await store.saveConfig(body, hash: "sha256:abc")
            try await store.saveConfig("ignored: the hash is already kept", hash: "sha256:abc")
            let reopened = try await opened.reopen()
            #expect(try await reopened.config(hash: "sha256:abc") == body)
            #expect(try await reopened.config(hash: "sha256:missing") == nil)
        }
    }

    @Test("results by key: exactly the stored ones asked for, whole, across runs; unknown keys left out", arguments: StoreBackend.allCases)
    func resultsByKey(_ backend: StoreBackend) async throws {
        try await backend.withStore { (store, opened) async throws in
            try await store.createRun(Fixtures.run("run-2"))
            let full = Fixtures.fullResult()
            let other = Fixtures.minimalResult(run: "run-2", caseID: "case-9", arm: "arm-b", repeatIndex: 1)
            try await store.insertResults([full, Fixtures.minimalResult(caseID: "case-2")])
            try await store.insertResult(other)
            let missing = ResultKey(runID: "run-1", caseID: "nope", armID: "arm-a", repeatIndex: 0)
            let found = try await store.results(keys: [other.key, full.key, missing])
            #expect(Set(found.map(\.key)) == [full.key, other.key])
            #expect(found.first { $0.key == full.key } == (try await store.results(run: "run-1")).first { $0.key == full.key })
            #expect(try await store.results(keys: []).isEmpty)
        }
    }

    @Test("the derived constraints_passed column reflects the constraint outcomes", arguments: StoreBackend.allCases)
    func constraintsPassedColumn(_ backend: StoreBackend) async throws {
        try await backend.withStore { (store, opened) async throws in
            var passing = Fixtures.minimalResult(caseID: "pass")
            passing.constraints = [ConstraintOutcome(name: "a", passed: true), ConstraintOutcome(name: "b", passed: true)]
            var failing = Fixtures.minimalResult(caseID: "fail")
            failing.constraints = [ConstraintOutcome(name: "a", passed: true), ConstraintOutcome(name: "b", passed: false)]
            let unchecked = Fixtures.minimalResult(caseID: "none")
            try await store.insertResults([passing, failing, unchecked])
            let stored = try await opened.texts(
                "SELECT case_id || '=' || CASE WHEN constraints_passed IS NULL THEN 'null' WHEN constraints_passed THEN 'true' "
                    + "ELSE 'false' END FROM results ORDER BY id")
            #expect(stored == ["pass=true", "fail=false", "none=null"])
        }
    }

    @Test("rows of older builds with one outcome per pattern under one name read back as one outcome per name", arguments: StoreBackend.allCases)
    func repeatedConstraintNamesCollapsePerOutput(_ backend: StoreBackend) async throws {
        try await backend.withStore { (store, opened) async throws in
            try await store.insertResults([Fixtures.minimalResult(caseID: "clean"), Fixtures.minimalResult(caseID: "fishy")])
            // What builds before one-result-per-key wrote for `mustNotContain: ["fish", "FOTH"]`.
            func old(observed: Int, passed: Bool, message: String) -> String {
                #"[{"name":"must_not_contain","observed":\#(observed),"passed":\#(passed),"message":"\#(message)"},"#
                    + #"{"name":"must_not_contain","observed":0,"passed":true,"message":"does not contain \"FOTH\""},"#
                    + #"{"name":"max_sentences","observed":1,"passed":true}]"#
            }
            let clean = old(observed: 0, passed: true, message: #"does not contain \"fish\""#)
            let fishy = old(observed: 2, passed: false, message: #"contains \"fish\" 2 times"#)
            try await opened.execute("UPDATE results SET constraints_json = '\(clean)' WHERE case_id = 'clean'")
            try await opened.execute("UPDATE results SET constraints_json = '\(fishy)' WHERE case_id = 'fishy'")
            var streamed: [ResultRecord] = []
            try await store.forEachResult(run: "run-1") { streamed.append($0) }
            for results in [try await store.results(run: "run-1"), streamed] {
                #expect(results.map { $0.constraints.map(\.name) } == [["must_not_contain", "max_sentences"], ["must_not_contain", "max_sentences"]])
                #expect(results.map { $0.constraints[0].passed } == [true, false])
                #expect(results[1].constraints[0].observed == .int(2))
                #expect(results[1].constraints[0].message == #"contains "fish" 2 times"#)
            }
        }
    }

    @Test("inserting a key that exists is ignored, reported, and leaves the first row untouched", arguments: StoreBackend.allCases)
    func duplicateKeyIsIgnored(_ backend: StoreBackend) async throws {
        try await backend.withStore { (store, opened) async throws in
            let first = Fixtures.fullResult()
            var second = Fixtures.fullResult()
            second.rawOutput = "a different answer"
            second.retries = 9

            #expect(try await store.insertResult(first) == true)
            #expect(try await store.insertResult(second) == false)
            #expect(try await store.results(run: "run-1") == [first])

            let batch = [
                Fixtures.minimalResult(caseID: "new-1"),
                second,
                Fixtures.minimalResult(caseID: "new-1"),
                Fixtures.minimalResult(caseID: "new-2"),
            ]
            #expect(try await store.insertResults(batch) == [true, false, false, true])
            #expect(try await store.resultCount(run: "run-1") == 3)
        }
    }

    @Test("completedKeys is exactly the set of inserted keys of that run", arguments: StoreBackend.allCases)
    func completedKeysAfterPartialInserts(_ backend: StoreBackend) async throws {
        try await backend.withStore { (store, opened) async throws in
            try await store.createRun(Fixtures.run("run-2"))
            var planned: [ResultKey] = []
            for caseID in ["c1", "c2", "c3"] {
                for arm in ["local", "cloud"] {
                    for repeatIndex in 0..<3 {
                        planned.append(ResultKey(runID: "run-1", caseID: caseID, armID: arm, repeatIndex: repeatIndex))
                    }
                }
            }
            let inserted = planned.enumerated().filter { $0.offset % 3 != 1 }.map(\.element)
            for key in inserted {
                try await store.insertResult(Fixtures.minimalResult(caseID: key.caseID, arm: key.armID, repeatIndex: key.repeatIndex))
            }
            // A result of another run with an overlapping (case, arm, repeat) must not leak into run-1's keys.
            try await store.insertResult(Fixtures.minimalResult(run: "run-2", caseID: "c1", arm: "local", repeatIndex: 1))

            let completed = try await store.completedKeys(run: "run-1")
            #expect(completed == Set(inserted))
            #expect(Set(planned).subtracting(completed).count == planned.count - inserted.count)
            #expect(try await store.completedKeys(run: "run-2") == [ResultKey(runID: "run-2", caseID: "c1", armID: "local", repeatIndex: 1)])
            #expect(try await store.completedKeys(run: "no-such-run").isEmpty)
        }
    }

    @Test("forEachResult streams every result once, in insertion order, across page boundaries", arguments: StoreBackend.allCases)
    func streamingAcrossPages(_ backend: StoreBackend) async throws {
        try await backend.withStore { (store, opened) async throws in
            try await store.createRun(Fixtures.run("other"))
            // Interleave two runs so one run's rows are not contiguous in the table.
            var mine: [ResultRecord] = []
            for index in 0..<250 {
                let result = Fixtures.minimalResult(caseID: "c\(index % 7)", arm: "a", repeatIndex: index)
                mine.append(result)
                try await store.insertResults([result, Fixtures.minimalResult(run: "other", repeatIndex: index)])
            }
            for batchSize in [1, 7, 50, 249, 250, 251, 1000] {
                var seen: [ResultRecord] = []
                try await store.forEachResult(run: "run-1", batchSize: batchSize) { seen.append($0) }
                #expect(seen == mine, "batch size \(batchSize)")
            }
        }
    }

    @Test("an error thrown by the streaming body stops the stream and reaches the caller", arguments: StoreBackend.allCases)
    func streamingBodyErrorPropagates(_ backend: StoreBackend) async throws {
        struct Stop: Error {}
        try await backend.withStore { (store, opened) async throws in
            try await store.insertResults((0..<30).map { Fixtures.minimalResult(repeatIndex: $0) })
            var seen = 0
            await #expect(throws: Stop.self) {
                try await store.forEachResult(run: "run-1", batchSize: 8) { _ in
                    seen += 1
                    if seen == 10 { throw Stop() }
                }
            }
            #expect(seen == 10)
        }
    }

    @Test("runs are listed newest first and move through running, interrupted, running, completed", arguments: StoreBackend.allCases)
    func runLifecycle(_ backend: StoreBackend) async throws {
        try await backend.withStores { (opened) async throws in
            let store = opened.results
            let older = Fixtures.run("older", startedAt: Fixtures.date)
            let newer = Fixtures.run("newer", startedAt: Fixtures.date.addingTimeInterval(60))
            try await store.createRun(older)
            try await store.createRun(newer)
            #expect(try await store.runs().map(\.id) == ["newer", "older"])
            #expect(try await store.runs(limit: 1).map(\.id) == ["newer"])

            let stop = Fixtures.date.addingTimeInterval(5)
            try await store.markInterrupted(id: "older", at: stop)
            var run = try #require(try await store.run(id: "older"))
            #expect(run.status == .interrupted)
            #expect(run.finishedAt == stop)

            try await store.markResumed(id: "older")
            run = try #require(try await store.run(id: "older"))
            #expect(run.status == .running)
            #expect(run.finishedAt == nil)

            let end = Fixtures.date.addingTimeInterval(90)
            try await store.finishRun(id: "older", at: end)
            run = try #require(try await store.run(id: "older"))
            #expect(run.status == .completed)
            #expect(run.finishedAt == end)
            #expect(try await store.run(id: "missing") == nil)
        }
    }

    @Test("errors name the run and the database: duplicate run, unknown run", arguments: StoreBackend.allCases)
    func runErrors(_ backend: StoreBackend) async throws {
        try await backend.withStore { (store, opened) async throws in
            await #expect(throws: StoreError.runAlreadyExists(path: opened.location, runID: "run-1")) {
                try await store.createRun(Fixtures.run())
            }
            await #expect(throws: StoreError.runNotFound(path: opened.location, runID: "ghost")) {
                try await store.finishRun(id: "ghost", at: Date())
            }
            await #expect(throws: StoreError.runNotFound(path: opened.location, runID: "ghost")) {
                try await store.insertResult(Fixtures.minimalResult(run: "ghost"))
            }
            #expect(StoreError.runAlreadyExists(path: "/tmp/x.sqlite", runID: "run-1").description.contains("--resume run-1"))
        }
    }

    @Test("non-finite numbers are refused before anything is written", arguments: StoreBackend.allCases)
    func nonFiniteNumbersRefused(_ backend: StoreBackend) async throws {
        try await backend.withStore { (store, opened) async throws in
            var badTiming = Fixtures.minimalResult(caseID: "t")
            badTiming.timings.totalMs = .infinity
            var badScore = Fixtures.minimalResult(caseID: "s")
            badScore.scores = [QualityScore(scorer: "judge", value: .nan)]
            for bad in [badTiming, badScore] {
                let error = await #expect(throws: StoreError.self) { try await store.insertResult(bad) }
                guard case .invalidValue = error else {
                    Issue.record("expected invalidValue, got \(String(describing: error))")
                    continue
                }
            }
            // A batch with one bad row writes nothing.
            await #expect(throws: StoreError.self) {
                try await store.insertResults([Fixtures.minimalResult(caseID: "ok"), badScore])
            }
            #expect(try await store.resultCount(run: "run-1") == 0)
        }
    }

    @Test("a hand-edited row that cannot be decoded is reported as unreadable, not as a crash", arguments: StoreBackend.allCases)
    func unreadableRow(_ backend: StoreBackend) async throws {
        try await backend.withStore { (store, opened) async throws in
            try await store.insertResult(Fixtures.minimalResult())
            try await opened.execute("UPDATE results SET scores_json = '{not json' ")
            let error = await #expect(throws: StoreError.self) { try await store.results(run: "run-1") }
            guard case .unreadableRow(_, let table, let reason) = error else {
                Issue.record("expected unreadableRow, got \(String(describing: error))")
                return
            }
            #expect(table == "results")
            #expect(reason.contains("scores_json"))
        }
    }

    @Test("the response cache stores, finds and replaces by request hash", arguments: StoreBackend.allCases)
    func responseCache(_ backend: StoreBackend) async throws {
        try await backend.withStores { (opened) async throws in
            let store = opened.results
            #expect(try await store.cachedResponse(requestHash: "h1") == nil)
            let response = CachedResponseRecord(
                requestHash: "h1",
                modelID: "gpt-4o-mini",
                text: "{\"a\":1}",
                structured: ["a": 1, "b": [0.5, "x"]],
                usage: TokenUsage(promptTokens: 10, completionTokens: 3, cachedTokens: 2, reasoningTokens: 1, isEstimated: false),
                ttftMs: 12.5,
                totalMs: 40.25,
                finishReason: "stop",
                createdAt: Fixtures.date
            )
            try await store.storeCachedResponse(response)
            #expect(try await store.cachedResponse(requestHash: "h1") == response)
            #expect(try await store.cachedResponse(requestHash: "h2") == nil)

            var replacement = response
            replacement.text = "newer"
            replacement.structured = nil
            replacement.ttftMs = nil
            try await store.storeCachedResponse(replacement)
            #expect(try await store.cachedResponse(requestHash: "h1") == replacement)
        }
    }

    @Test("pairwise verdicts: stored, replaced for the same case and pair, read in order, refused for an unknown run", arguments: StoreBackend.allCases)
    func pairwiseVerdicts(_ backend: StoreBackend) async throws {
        try await backend.withStore { (store, opened) async throws in
            func verdict(_ caseID: String, arm: String, _ outcome: PairwiseVerdictRecord.Outcome) -> PairwiseVerdictRecord {
                PairwiseVerdictRecord(
                    runID: "run-1", feature: "summarize", caseID: caseID, armID: arm, baselineArmID: "v@base", judge: "grader",
                    outcome: outcome, human: outcome == .tie ? .arm : nil, rawAnswers: ["A", "TIE \u{1F600} \"quoted\""],
                    judgeTokens: 120, judgeCostUSD: 0.00042)
            }
            try await store.savePairwiseVerdict(verdict("k2", arm: "v@b", .arm))
            try await store.savePairwiseVerdict(verdict("k1", arm: "v@b", .inconsistent))
            try await store.savePairwiseVerdict(verdict("k1", arm: "v@a", .tie))
            try await store.savePairwiseVerdict(verdict("k2", arm: "v@b", .baseline))
            let reopened = try await opened.reopen()
            #expect(try await reopened.pairwiseVerdicts(run: "run-1") == [
                verdict("k1", arm: "v@a", .tie), verdict("k1", arm: "v@b", .inconsistent), verdict("k2", arm: "v@b", .baseline),
            ])
            #expect(try await reopened.pairwiseVerdicts(run: "other").isEmpty)
            var ghost = verdict("k1", arm: "v@a", .arm)
            ghost.runID = "ghost"
            await #expect(throws: StoreError.runNotFound(path: opened.location, runID: "ghost")) {
                try await store.savePairwiseVerdict(ghost)
            }
        }
    }
}
