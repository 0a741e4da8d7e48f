import Foundation
import HybridReport
import HybridStore
import HybridTestSupport
import Testing
import HybridProjectTestSupport

/// The `hybrid report` and `hybrid compare` commands as CI runs them: files written, exit codes 0 / 3 / 1.
@Suite("hybrid report and compare")
struct ReportCommandTests {
    typealias F = ReportFixtures

    static let packageRoot = ProjectRoot.url

    static func hybrid(_ arguments: [String], in directory: URL) async throws -> (status: Int32, output: String) {
        let outcome = try await HybridCLI.run(arguments, in: directory, packageRoot: packageRoot)
        return (outcome.status, outcome.output)
    }

    @Test("report writes the four files under reports/RUN; compare exits 0 when gates hold, 3 when one fails, 1 on errors")
    func exitCodes() async throws {
        try await F.withTemporaryDirectory { directory in
            let worse = F.arms.map { arm -> F.Arm in
                var arm = arm
                if arm.id == "terse@gpt-4o-mini" { arm.scoreBase -= 0.15 }
                return arm
            }
            _ = try await F.store(in: directory.appendingPathComponent(".hybrid"), runs: [
                (F.run(), F.results()), (F.run("worse-run"), F.results(runID: "worse-run", arms: worse)),
            ])

            let report = try await Self.hybrid(["report", F.runID], in: directory)
            #expect(report.status == 0, "\(report.output)")
            let folder = directory.appendingPathComponent("reports/\(F.runID)")
            for name in ["report.md", "report.html", "report.json", "junit.xml"] {
                #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "\(name)")
            }
            var written = try RunReport.load(path: folder.appendingPathComponent("report.json").path)
            // `hybrid report` adds what `hybrid recommend` would do (here: why it could not; the fixture keeps no config).
            #expect(written.features.allSatisfy { $0.recommendation != nil }, "\(written.features.map(\.recommendation))")
            for index in written.features.indices {
                written.features[index].recommendation = nil
                written.features[index].recommendedArm = nil
            }
            #expect(written == F.report())

            // The committed-baseline flow: the same run against its own report holds.
            let baseline = folder.appendingPathComponent("report.json").path
            let same = try await Self.hybrid(["compare", "--baseline", baseline, F.runID, "--out", "out-same"], in: directory)
            #expect(same.status == 0, "\(same.output)")

            // A significant quality drop on one arm fails with 3 and names the gate.
            let regressed = try await Self.hybrid(["compare", "--baseline", baseline, "worse-run", "--out", "out-worse"], in: directory)
            #expect(regressed.status == 3, "\(regressed.output)")
            #expect(regressed.output.contains("FAIL summarize terse@gpt-4o-mini regression:quality:rouge_l"))
            // Pass/fail did not move (only scores did): the flipped-case list says so, from the file's per-case data.
            #expect(regressed.output.contains("flipped cases (golden-run → worse-run): 0 pass→fail, 0 fail→pass"))
            let markdown = try String(contentsOf: directory.appendingPathComponent("out-worse/report.md"), encoding: .utf8)
            #expect(markdown.contains("regression:quality:rouge_l"))

            // Two stored runs, and a threshold gate file.
            let gates = directory.appendingPathComponent("gates.json")
            try Data(#"{"features": {"*": {"*": {"minAdherenceLower": 0.99}}}}"#.utf8).write(to: gates)
            let gated = try await Self.hybrid(["compare", F.runID, F.runID, "--gate", gates.path, "--format", "md,junit", "--out", "out-gated"], in: directory)
            #expect(gated.status == 3, "\(gated.output)")
            let junit = try String(contentsOf: directory.appendingPathComponent("out-gated/junit.xml"), encoding: .utf8)
            #expect(junit.contains("<failure"))

            // Errors exit 1 with a message: an unknown run, a missing database.
            let unknown = try await Self.hybrid(["report", "no-such-run"], in: directory)
            #expect(unknown.status == 1)
            #expect(unknown.output.contains("run 'no-such-run' is not in the database"))
            let noDB = try await Self.hybrid(["report", F.runID, "--db", "missing.sqlite"], in: directory)
            #expect(noDB.status == 1)
            #expect(noDB.output.contains("no results database at missing.sqlite"))
        }
    }

    @Test("compare without --out writes reports/compare-A-vs-B and leaves the runs' own report files as they were")
    func compareNeverOverwritesARunsReport() async throws {
        try await F.withTemporaryDirectory { directory in
            _ = try await F.store(in: directory.appendingPathComponent(".hybrid"), runs: [
                (F.run(), F.results()), (F.run("other-run"), F.results(runID: "other-run")),
            ])
            let report = try await Self.hybrid(["report", "other-run"], in: directory)
            #expect(report.status == 0, "\(report.output)")
            let own = directory.appendingPathComponent("reports/other-run/report.json")
            let before = try Data(contentsOf: own)

            let stored = try await Self.hybrid(["compare", F.runID, "other-run"], in: directory)
            #expect(stored.status == 0, "\(stored.output)")
            let folder = directory.appendingPathComponent("reports/compare-\(F.runID)-vs-other-run")
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("report.md").path), "\(stored.output)")
            #expect(try Data(contentsOf: own) == before)

            // Against a baseline file, the folder is named after the file.
            let file = try await Self.hybrid(["compare", "--baseline", own.path, "other-run"], in: directory)
            #expect(file.status == 0, "\(file.output)")
            #expect(file.output.contains("reports/compare-report-vs-other-run/report.md"), "\(file.output)")
            #expect(try Data(contentsOf: own) == before)
        }
    }

    @Test("report --reducer names the reducer and the unit of a run with repeats; a wrong reducer is refused")
    func reducerOption() async throws {
        try await F.withTemporaryDirectory { directory in
            let repeated = RepeatReductionTests.repeated(F.results(), 3)
            _ = try await F.store(in: directory.appendingPathComponent(".hybrid"), runs: [(F.run(), repeated)])
            let report = try await Self.hybrid(
                ["report", F.runID, "--reducer", "all", "--format", "md", "--out", "out"], in: directory)
            #expect(report.status == 0, "\(report.output)")
            let markdown = try String(contentsOf: directory.appendingPathComponent("out/report.md"), encoding: .utf8)
            #expect(markdown.contains("n = 40 cases × 3 repeats") && markdown.contains("all repeats pass (pass^k)"))
            let wrong = try await Self.hybrid(["report", F.runID, "--reducer", "some"], in: directory)
            #expect(wrong.status != 0 && wrong.output.contains("--reducer takes mean, all or any"), "\(wrong.output)")
        }
    }
}
