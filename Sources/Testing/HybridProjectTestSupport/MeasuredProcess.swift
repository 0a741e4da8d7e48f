import Foundation
import Glibc
import HybridTestSupport

/// Runs a program to completion and reports what it cost: wall time, CPU time and peak resident memory of that
/// one child, from `wait4`'s `rusage`.
///
/// `Process` reaps its child itself, and `getrusage(RUSAGE_CHILDREN)` only gives the largest peak over every child
/// ever reaped; a benchmark comparing the CLI with a raw client, or a test bounding the CLI's memory, needs the
/// figures of exactly one run. The program is started through the small `hybrid-measure` executable (built beside
/// the tests and the benchmarks): Linux folds the spawning process's peak into an exec'd child's (`exec_mmap`), so a
/// program spawned straight from a 300 MB test process would report a 300 MB peak. The wait happens on a thread
/// of its own (`BlockingWork`).
public struct MeasuredProcess: Sendable {
    /// What one run cost.
    public struct Usage: Sendable {
        /// Exit status, or 128 + the signal number when a signal ended it.
        public var status: Int32
        /// From spawn to exit.
        public var wallSeconds: Double
        /// User plus system CPU of the child.
        public var cpuSeconds: Double
        /// Peak resident set size of the child.
        public var peakRSSBytes: Int
        /// What the child wrote to stdout and stderr (both to one file), when capturing was asked for.
        public var output: String
    }

    /// Why the program could not be started.
    public struct SpawnError: Error, CustomStringConvertible {
        /// The program and the errno text.
        public var description: String
    }

    /// The program's path.
    public var executable: String
    /// Its arguments, without the program name.
    public var arguments: [String]
    /// Kill the child (SIGKILL) when it runs longer than this.
    public var timeout: Duration?

    /// A run of `executable` with `arguments`.
    public init(_ executable: String, _ arguments: [String], timeout: Duration? = nil) {
        self.executable = executable
        self.arguments = arguments
        self.timeout = timeout
    }

    /// Runs the program and waits for it. Output goes to a temporary file and is returned when `captureOutput`.
    public func run(captureOutput: Bool = true) async throws -> Usage {
        let measure = try BuiltExecutable.find(
            "hybrid-measure", override: "HYBRID_MEASURE", packageRoot: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("measured-\(UUID().uuidString)").path
        let outputPath = temporary + ".log", reportPath = temporary + ".usage"
        defer { for path in [outputPath, reportPath] { try? FileManager.default.removeItem(atPath: path) } }
        let started = ContinuousClock.now
        let pid = try spawn(measure.path, [reportPath, executable] + arguments, outputPath: captureOutput ? outputPath : "/dev/null")
        let timeout = self.timeout
        let (status, usage) = try await BlockingWork.run { Self.wait(pid, started: started, timeout: timeout) }
        let wall = ContinuousClock.now - started
        let output = captureOutput ? ((try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "") : ""
        var result = Usage(
            status: status, wallSeconds: Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18,
            cpuSeconds: Self.seconds(usage.ru_utime) + Self.seconds(usage.ru_stime), peakRSSBytes: usage.ru_maxrss * 1024,
            output: output)
        try readReport(at: reportPath, into: &result)
        return result
    }

    /// Takes the program's own figures from `hybrid-measure`'s report. Without one (the helper was killed on
    /// timeout) the helper's figures stand, with the program's status as the kill left it.
    private func readReport(at path: String, into usage: inout Usage) throws {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return }
        let fields = text.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        if fields.first == "spawn-error", fields.count == 2, let code = Int32(fields[1]) {
            throw SpawnError(description: "\(executable): \(String(cString: strerror(code)))")
        }
        guard fields.count == 4, let status = Int32(fields[0]), let peakKB = Int(fields[1]),
              let user = Double(fields[2]), let system = Double(fields[3]) else {
            throw SpawnError(description: "hybrid-measure wrote an unreadable report for \(executable): \(text)")
        }
        usage.status = status
        usage.peakRSSBytes = peakKB * 1024
        usage.cpuSeconds = (user + system) / 1_000_000
    }

    private static func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }

    private func spawn(_ program: String, _ arguments: [String], outputPath: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // A child spawned from a dispatch thread would inherit its blocked signals; start it with none blocked.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))

        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, program, &actions, &attributes, argv, environ)
        guard code == 0 else { throw SpawnError(description: "\(program): \(String(cString: strerror(code)))") }
        return pid
    }

    private static func wait(_ pid: pid_t, started: ContinuousClock.Instant, timeout: Duration?) -> (Int32, rusage) {
        var status: Int32 = 0
        var usage = rusage()
        while true {
            let result = wait4(pid, &status, timeout == nil ? 0 : WNOHANG, &usage)
            if result == pid { break }
            if result < 0 && errno != EINTR { return (-1, usage) }
            if let timeout, ContinuousClock.now - started > timeout { kill(pid, SIGKILL) }
            usleep(5_000)
        }
        // WIFEXITED / WEXITSTATUS are macros Swift cannot see.
        let signal = status & 0x7f
        return (signal == 0 ? (status >> 8) & 0xff : 128 + signal, usage)
    }
}
