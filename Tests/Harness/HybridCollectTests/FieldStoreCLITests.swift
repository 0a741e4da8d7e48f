import Foundation
import HybridConfig
import HybridConfigTools
import HybridCore
import HybridReport
import HybridTestSupport
import Testing
import HybridProjectTestSupport

/// The field loop through the real `hybrid` on both stores (issue #38): `ingest`, `report` and `recommend` with
/// `--db postgres://…` answer exactly as with a SQLite file, and a collector killed after acknowledging a batch
/// lost none of it.
@Suite(.postgresServer) struct FieldStoreCLITests {
    static let run = "field-summarize-v7"

    /// 40 installs per arm over two config versions (v6 is v7's pre-period); `bullet` fails its check less often.
    static func events() -> [RouteEvent] {
        var events: [RouteEvent] = []
        for install in 0..<80 {
            let arm = install.isMultiple(of: 2) ? "bullet" : "concise"
            for index in 0..<4 {
                let version = index == 0 ? 6 : 7
                let passed = arm == "bullet" ? (install + index) % 9 != 0 : (install + index) % 3 != 0
                let latency = Double(200 + (install * 37 + index * 11) % 150)
                events.append(RouteEvent(
                    id: "ev-\(install)-\(index)", timestamp: Date(timeIntervalSince1970: 1_763_850_000 + Double(install * 10 + index)),
                    installId: "install-\(install)", feature: "summarize", configVersion: version, configHash: "hash-v\(version)",
                    variant: arm, rolloutArm: arm, bucket: install * 97 % 10_000, servedBy: "cloud", servedTier: .privateCloud,
                    outcome: .served,
                    attempts: [.init(model: "cloud", tier: .privateCloud, outcome: .served, startMs: 0, durationMs: latency)],
                    ttftMs: latency / 4, latencyMs: latency, inputTokens: 30 + index, outputTokens: 12, costUSD: 0.0001 * Double(1 + index),
                    checks: [.init(name: "max_words", passed: passed)],
                    labels: ["deviceClass": install % 3 == 0 ? "phone" : "tablet"]))
            }
        }
        return events
    }

    /// The events as a `JSONLinesEventSink` file would hold them.
    static func writeEvents(_ events: [RouteEvent], in directory: URL) throws -> String {
        let encoder = JSONEncoder()
        let lines = try events.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        let path = directory.appendingPathComponent("events.jsonl").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Version 7 with a 50/50 rollout of the two variants the events name.
    static func writeConfig(in directory: URL) throws -> String {
        var document = try HybridConfigDocument.bundledDefaults().document
        var feature = try #require(document.features["summarize"])
        feature.variants = [
            "concise": PromptVariant(template: "Summarize:\n{{input}}"), "bullet": PromptVariant(template: "Bullets:\n{{input}}"),
        ]
        feature.defaultVariant = "concise"
        document.features = ["summarize": feature]
        document.version = 7
        document.rollouts = [
            "summarize": RolloutConfig(seed: "cli-field", arms: [
                RolloutArm(name: "concise", percentage: 50, variant: "concise"),
                RolloutArm(name: "bullet", percentage: 50, variant: "bullet"),
            ]),
        ]
        let path = directory.appendingPathComponent("config.json").path
        try document.encodedJSON().write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `hybrid ARGUMENTS`, which must succeed.
    static func hybrid(_ arguments: [String], in directory: URL) async throws -> String {
        let outcome = try await HybridCLI.run(arguments, in: directory)
        #expect(outcome.status == 0, "hybrid \(arguments.joined(separator: " ")): \(outcome.output)")
        return outcome.output
    }

    /// ingest → report (with `--by`) → recommend on `db`: the report's JSON and recommend's output.
    static func fieldLoop(db: String, events: String, config: String, in directory: URL, out: String) async throws
        -> (report: Any, recommend: String)
    {
        let ingested = try await hybrid(["ingest", events, "--db", db], in: directory)
        #expect(ingested.contains("320 stored, 0 already stored, 0 refused"), "\(ingested)")
        let again = try await hybrid(["ingest", events, "--db", db], in: directory)
        #expect(again.contains("0 stored, 320 already stored"), "\(again)")
        _ = try await hybrid(
            ["report", run, "--db", db, "--rollout-config", config, "--by", "deviceClass", "--minimum-installs", "5",
             "--out", out, "--format", "json"], in: directory)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/report.json")))
        let whole = try await hybrid(["recommend", run, "--config", config, "--db", db], in: directory)
        let segments = try await hybrid(
            ["recommend", run, "--config", config, "--db", db, "--by", "deviceClass", "--minimum-installs", "5"], in: directory)
        #expect(segments.contains("recommendation per deviceClass"), "\(segments)")
        return (json, whole + segments)
    }

    /// `value` without the keys that say when the run was created (the one figure that differs: each ingest
    /// creates its run now).
    static func withoutCreationTimes(_ value: Any) -> Any {
        let volatile: Set<String> = ["startedAt", "finishedAt"]
        if let object = value as? [String: Any] {
            return object.filter { !volatile.contains($0.key) }.mapValues(withoutCreationTimes)
        }
        if let array = value as? [Any] { return array.map(withoutCreationTimes) }
        return value
    }

    /// Where two JSON values differ, as key paths.
    static func differences(_ left: Any, _ right: Any, at path: String = "$") -> [String] {
        if let left = left as? [String: Any], let right = right as? [String: Any] {
            return Set(left.keys).union(right.keys).sorted().flatMap { key in
                guard let l = left[key], let r = right[key] else { return ["\(path).\(key) (missing on one side)"] }
                return differences(l, r, at: "\(path).\(key)")
            }
        }
        if let left = left as? [Any], let right = right as? [Any] {
            guard left.count == right.count else { return ["\(path) (\(left.count) vs \(right.count) items)"] }
            return zip(left, right).enumerated().flatMap { differences($1.0, $1.1, at: "\(path)[\($0)]") }
        }
        return (left as? NSObject)?.isEqual(right) == true ? [] : ["\(path): \(left) vs \(right)"]
    }

    @Test func ingestReportAndRecommendOnPostgreSQLAnswerAsOnASQLiteFile() async throws {
        try await withTemporaryDirectory { directory in
            let events = try Self.writeEvents(Self.events(), in: directory.url)
            let config = try Self.writeConfig(in: directory.url)
            let sqlite = try await Self.fieldLoop(
                db: directory.url.appendingPathComponent("field.sqlite").path, events: events, config: config,
                in: directory.url, out: directory.url.appendingPathComponent("sqlite").path)
            try await PostgresServerTrait.server().withDatabase { url in
                let before = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
                let postgres = try await Self.fieldLoop(
                    db: url, events: events, config: config, in: directory.url,
                    out: directory.url.appendingPathComponent("postgres").path)
                let left = Self.withoutCreationTimes(sqlite.report), right = Self.withoutCreationTimes(postgres.report)
                #expect(Self.differences(left, right).isEmpty, "report.json differs: \(Self.differences(left, right).prefix(10))")
                #expect(((right as? [String: Any])?["field"] as? [String: Any]) != nil, "no field section")
                #expect(sqlite.recommend == postgres.recommend)
                #expect(postgres.recommend.contains("field run \(Self.run)"), "\(postgres.recommend)")
                // Nothing but the report directory appeared: no SQLite file named like the URL.
                let after = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
                #expect(Set(after).subtracting(before) == ["postgres"], "\(after)")
            }
        }
    }

    @Test func twoIngestProcessesWithOverlappingFilesStoreEachEventOnce() async throws {
        try await withTemporaryDirectory { directory in
            try await PostgresServerTrait.server().withDatabase { url in
                let events = Self.events()
                let first = directory.url.appendingPathComponent("first")
                let second = directory.url.appendingPathComponent("second")
                for folder in [first, second] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
                // 0..<240 and 80..<320, the second backwards: 160 events in both files.
                let one = try Self.writeEvents(Array(events[0..<240]), in: first)
                let two = try Self.writeEvents(Array(events[80..<320].reversed()), in: second)
                async let a = HybridCLI.run(["ingest", one, "--db", url], in: directory.url)
                async let b = HybridCLI.run(["ingest", two, "--db", url], in: directory.url)
                let outcomes = try await [a, b]
                #expect(outcomes.allSatisfy { $0.status == 0 }, "\(outcomes.map(\.output))")
                let stored = outcomes.compactMap { Int($0.output.firstMatch(of: /: ([0-9]+) stored/)?.output.1 ?? "") }
                #expect(stored.count == 2 && stored.reduce(0, +) == 320, "\(outcomes.map(\.output))")
                let all = try Self.writeEvents(events, in: directory.url)
                let again = try await Self.hybrid(["ingest", all, "--db", url], in: directory.url)
                #expect(again.contains("0 stored, 320 already stored"), "\(again)")
            }
        }
    }

    @Test func aCollectorKilledAfterAcknowledgingABatchLostNoneOfItOnPostgreSQL() async throws {
        try await withTemporaryDirectory { directory in
            try await PostgresServerTrait.server().withDatabase { url in
                let events = Array(Self.events().prefix(120))
                let collector = try await HybridCLI.startServer(
                    ["collect", "--listen", "127.0.0.1:0", "--token-env", "CLI_COLLECT_TOKEN", "--db", url], in: directory.url,
                    environment: ["CLI_COLLECT_TOKEN": "s3cret"])
                defer { collector.stop() }
                let (status, answer) = try await CollectorServerTests.post(try CollectorServerTests.batch(events), to: collector.url)
                collector.stop()  // kill -9 right after the acknowledgement
                #expect(status == 200 && answer.contains(#""accepted":120"#), "\(answer)")
                // Every acknowledged event is in the database: ingesting them again stores none.
                let file = try Self.writeEvents(events, in: directory.url)
                let again = try await Self.hybrid(["ingest", file, "--db", url], in: directory.url)
                #expect(again.contains("0 stored, 120 already stored"), "\(again)")
            }
        }
    }
}

/// `--db` (and `HYBRID_DB_URL`) parsed, not guessed, through the real `hybrid`: the accepted SQLite spellings name a
/// path, and anything else is a usage error before a file could be created.
@Suite struct StoreLocationCLITests {
    @Test(arguments: ["mysql://x", "postgress://x", "http://127.0.0.1/db", "sqlite://"])
    func aDBThatNamesNoStoreIsAUsageErrorAndCreatesNothing(_ db: String) async throws {
        try await withTemporaryDirectory { directory in
            let events = try FieldStoreCLITests.writeEvents(Array(FieldStoreCLITests.events().prefix(2)), in: directory.url)
            let before = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
            for command in [
                ["ingest", events], ["report", FieldStoreCLITests.run], ["eval", "--feature", "summarize", "--dataset", events],
                ["recommend", FieldStoreCLITests.run], ["collect", "--listen", "127.0.0.1:0"],
            ] {
                let outcome = try await HybridCLI.run(command + ["--db", db], in: directory.url)
                #expect(outcome.status == 64, "\(command[0]) --db \(db): \(outcome.status) \(outcome.output)")
                #expect(outcome.output.contains("postgres://") && outcome.output.contains("file://"), "\(outcome.output)")
            }
            let merge = try await HybridCLI.run(["merge", db, "in.sqlite"], in: directory.url)
            #expect(merge.status == 64 && merge.output.contains("postgres://"), "\(merge.output)")
            let fromEnvironment = try await HybridCLI.run(
                ["report", FieldStoreCLITests.run], in: directory.url, environment: ["HYBRID_DB_URL": db])
            #expect(fromEnvironment.status == 64 && fromEnvironment.output.contains("HYBRID_DB_URL"), "\(fromEnvironment.output)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == before)
        }
    }

    @Test func fileAndSQLiteURLsNameAPathAndAPasswordIsNeverPrinted() async throws {
        try await withTemporaryDirectory { directory in
            let events = try FieldStoreCLITests.writeEvents(Array(FieldStoreCLITests.events().prefix(4)), in: directory.url)
            let file = directory.url.appendingPathComponent("a.sqlite").path
            _ = try await FieldStoreCLITests.hybrid(["ingest", events, "--db", "file://" + file], in: directory.url)
            _ = try await FieldStoreCLITests.hybrid(["ingest", events, "--db", "sqlite://b.sqlite"], in: directory.url)
            #expect(FileManager.default.fileExists(atPath: file))
            #expect(FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("b.sqlite").path))
            let refused = try await HybridCLI.run(["ingest", events, "--db", "mysql://me:hunter2@db/x"], in: directory.url)
            #expect(refused.status == 64 && !refused.output.contains("hunter2"), "\(refused.output)")
        }
    }
}
