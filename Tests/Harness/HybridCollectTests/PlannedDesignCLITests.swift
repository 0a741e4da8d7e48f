import Foundation
import HybridTestSupport
import Testing
import HybridProjectTestSupport

/// #68 item 3 through the real `hybrid`: a report read under a planned design says so and keeps the design with its
/// look; a later report or recommend with another design (other flags, or none) is refused, saying what was planned
/// and since when.
@Suite struct PlannedDesignCLITests {
    @Test func aPlannedReportNamesItsDesignAndAChangedDesignIsRefused() async throws {
        try await withTemporaryDirectory { directory in
            let events = try FieldStoreCLITests.writeEvents(FieldStoreCLITests.events(), in: directory.url)
            let config = try FieldStoreCLITests.writeConfig(in: directory.url)
            let db = directory.url.appendingPathComponent("field.sqlite").path
            let out = directory.url.appendingPathComponent("report").path
            let run = FieldStoreCLITests.run
            _ = try await FieldStoreCLITests.hybrid(["ingest", events, "--db", db], in: directory.url)
            let planned = ["--design", "planned", "--horizon-days", "7", "--looks", "7"]
            _ = try await FieldStoreCLITests.hybrid(
                ["report", run, "--db", db, "--rollout-config", config, "--minimum-installs", "5", "--out", out,
                 "--format", "md"] + planned, in: directory.url)
            let markdown = try String(contentsOfFile: out + "/report.md", encoding: .utf8)
            // The events are from 2025: the report is read past the horizon, so it is the last planned look.
            #expect(markdown.contains("Design: planned: 7 looks over 7 days (days 1, 2, 3, 4, 5, 6, 7), obrienFleming spending"), "\(markdown)")
            #expect(markdown.contains("This reading: planned look 7 of 7, t 1."))
            #expect(markdown.contains("— planned look 7 of 7, t 1, \\|z\\| "), "each verdict names the test that governed it (its bars escaped in the table)")
            for changed in [
                ["report", run, "--db", db, "--rollout-config", config, "--minimum-installs", "5", "--out", out] + planned
                    + ["--spending", "pocock"],
                ["recommend", run, "--config", config, "--db", db, "--minimum-installs", "5"],
            ] {
                let outcome = try await HybridCLI.run(changed, in: directory.url)
                #expect(outcome.status != 0, "\(outcome.output)")
                #expect(outcome.output.contains("has been read under planned: 7 looks over 7 days"), "\(outcome.output)")
                // A changed spending function is named; the always-valid design shares no clause with a planned one.
                #expect(outcome.output.contains("It differs in: kept") == changed.contains("pocock"), "\(outcome.output)")
                #expect(outcome.output.contains("The design of a running experiment cannot change"), "\(outcome.output)")
            }
            // The same design again reads on (here the same events: the same look again).
            let again = try await FieldStoreCLITests.hybrid(
                ["recommend", run, "--config", config, "--db", db, "--minimum-installs", "5"] + planned, in: directory.url)
            #expect(again.contains("recommendation from"), "\(again)")
        }
    }
}
