import Foundation
import HybridTestSupport
import Testing
import HybridProjectTestSupport

/// `MeasuredProcess` is what the CLI benchmark and the memory-bound tests read their figures from: a peak that
/// silently includes the test process's own (Linux folds it in at exec) makes a memory test fail for reasons not
/// its own and a benchmark's RSS column meaningless.
@Suite("MeasuredProcess: one program's own figures")
struct MeasuredProcessTests {
    @Test func aProgramsPeakIsItsOwnNotTheSpawningProcesses() async throws {
        // Raise this process's peak well above what /bin/true can reach.
        let ballast = [UInt8](repeating: 1, count: 160 << 20)
        let run = try await MeasuredProcess("/bin/true", []).run()
        withExtendedLifetime(ballast) {}
        #expect(run.status == 0)
        #expect(run.peakRSSBytes > 0 && run.peakRSSBytes < 32 << 20, "peak \(run.peakRSSBytes >> 20) MB")
    }

    @Test func memoryTheProgramTouchesIsCounted() async throws {
        // dd reads 64 MB of zeros into one buffer: its peak is at least that.
        let run = try await MeasuredProcess("/bin/dd", ["if=/dev/zero", "of=/dev/null", "bs=64M", "count=1"]).run()
        #expect(run.status == 0, "\(run.output)")
        #expect(run.peakRSSBytes >= 64 << 20 && run.peakRSSBytes < 128 << 20, "peak \(run.peakRSSBytes >> 20) MB")
        #expect(run.cpuSeconds > 0)
    }

    @Test func exitStatusesAndSignalsComeThrough() async throws {
        let exited = try await MeasuredProcess("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"]).run()
        #expect(exited.status == 3)
        #expect(exited.output.contains("out") && exited.output.contains("err"))
        let killed = try await MeasuredProcess("/bin/sh", ["-c", "kill -9 $$"]).run()
        #expect(killed.status == 128 + 9)
    }

    @Test func aProgramThatCannotStartIsASpawnError() async throws {
        let error = await #expect(throws: MeasuredProcess.SpawnError.self) {
            try await MeasuredProcess("/nonexistent/hybrid-no-such-program", []).run()
        }
        #expect(error?.description.contains("/nonexistent/hybrid-no-such-program") == true)
        #expect(error?.description.contains("No such file") == true)
    }

    @Test func aTimeoutKillsTheProgramNotOnlyTheLauncher() async throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("measured-\(UUID().uuidString).pid")
        defer { try? FileManager.default.removeItem(at: pidFile) }
        let started = ContinuousClock.now
        let run = try await MeasuredProcess("/bin/sh", ["-c", "echo $$ > \(pidFile.path); exec sleep 30"], timeout: .milliseconds(500)).run()
        #expect(run.status == 128 + 9)
        #expect(ContinuousClock.now - started < .seconds(10))
        let pid = try #require(Int32(try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        // The launcher's death signal reaches the program asynchronously; a reaped or zombie process is gone.
        var alive = true
        for _ in 0..<100 where alive {
            let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
            alive = stat.map { !$0.contains(") Z ") } ?? false
            if alive { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(!alive, "sleep (pid \(pid)) outlived its launcher")
    }
}
