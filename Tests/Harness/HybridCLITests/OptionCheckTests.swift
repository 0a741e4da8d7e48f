import Foundation
import HybridTestSupport
import Testing

/// Numeric options out of range are usage errors (exit 64) that name the option, before anything runs.
@Suite("hybrid option checks")
struct OptionCheckTests {
    @Test(arguments: [
        (["eval", "--feature", "summarize", "--dataset", "d.jsonl", "--concurrency", "0"], "--concurrency must be at least 1, found 0"),
        (["eval", "--feature", "summarize", "--dataset", "d.jsonl", "--per-model-concurrency=-2"], "--per-model-concurrency must be at least 1, found -2"),
        (["eval", "--feature", "summarize", "--dataset", "d.jsonl", "--repeat", "0"], "--repeat must be at least 1, found 0"),
        (["eval", "--resume", "r1", "--limit", "0"], "--limit must be at least 1, found 0"),
        (["ask", "--max-tokens", "0", "hello"], "--max-tokens must be at least 1, found 0"),
        (["ask", "--temperature", "3", "hello"], "--temperature must be between 0.0 and 2.0, found 3.0"),
        (["report", "r1", "--worst=-1"], "--worst must be at least 0, found -1"),
        (["config", "fetch", "http://127.0.0.1:9/c.json", "--max-bytes", "0"], "--max-bytes must be at least 1, found 0"),
        // Off loopback, unauthenticated uploads could steer recommendations: refused with what to do.
        (["collect", "--listen", "0.0.0.0:0"], "pass --token-env NAME"),
        (["collect", "--listen", "192.168.1.7:8787"], "or listen on 127.0.0.1"),
        (["report", "r1", "--reducer", "some"], "--reducer takes mean, all or any"),
        (["report", "r1", "--minimum-installs", "1"], "--minimum-installs must be at least 2, found 1"),
        // A planned-horizon design on the command line (#68 item 3): each error names its flag.
        (["report", "r1", "--design", "planed"], "--design: unknown design \"planed\""),
        (["report", "r1", "--design", "planned", "--horizon-days", "7", "--looks", "7", "--spending", "obrienFlemming"],
         "--spending: unknown spending function \"obrienFlemming\"; did you mean \"obrienFleming\"?"),
        (["recommend", "r1", "--design", "planned", "--looks", "7"], "--design planned needs exactly one of --horizon-days and --horizon-installs"),
        (["report", "r1", "--design", "planned", "--horizon-days", "0", "--looks", "7"], "--horizon-days must be above 0"),
        (["report", "r1", "--design", "planned", "--horizon-installs", "200", "--looks", "0"], "--looks must be at least 1, found 0"),
        (["report", "r1", "--looks", "7"], "--looks needs --design planned"),
        // A rollout publishes for real, each upload conditional on the ETag the one before recorded.
        (["rollout", "step", "summarize", "--to", "file:///tmp/h.json", "--dry-run"], "--dry-run: a rollout publishes"),
        (["rollout", "start", "summarize", "--to", "file:///tmp/h.json", "--if-match", "\"x\""], "--if-match: each stage's upload"),
        (["rollout", "step", "summarize", "--to", "file:///tmp/h.json", "--watch", "soon"], "--watch: soon is not an interval"),
        // `hybrid` leaves the exporter out; it names the executable that has it instead of exporting nothing.
        (["eval", "--feature", "summarize", "--dataset", "d.jsonl", "--otlp-endpoint", "http://127.0.0.1:4318"],
         "--otlp-endpoint needs hybrid-otlp"),
        (["ask", "--feature", "summarize", "--otlp-endpoint", "http://127.0.0.1:4318", "hello"], "`make otlp` builds .build/debug/hybrid-otlp"),
    ])
    func outOfRangeNumbersAreUsageErrors(arguments: [String], message: String) async throws {
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.hybrid(arguments + ["--db", fixture.database])
        #expect(outcome.status == 64, "\(outcome.output)")
        #expect(outcome.output.contains(message), "\(outcome.output)")
        #expect(!FileManager.default.fileExists(atPath: fixture.database), "nothing may run before the check")
    }
}
