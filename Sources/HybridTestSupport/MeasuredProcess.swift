import Foundation
import Glibc

/// Runs a program to completion and reports what it cost: wall time, CPU time and peak resident memory of that
/// one child, from `wait4`'s `rusage`.
///
/// `Process` reaps its child itself, and `getrusage(RUSAGE_CHILDREN)` only gives the largest peak over every child
/// ever reaped; a benchmark comparing the CLI with a raw client, or a test bounding the CLI's memory, needs the
/// figures of exactly one run. The wait happens on a thread of its own (`BlockingWork`).
public struct MeasuredProcess: Sendable {
    /// What one run cost.
    public struct Usage: Sendable {
        /// Exit status, or 128 + the signal number when a signal ended it.
        public var status: Int32
        /// From spawn to exit.
        public var wallSeconds: Double
        /// User plus system CPU of the child.
        public var cpuSeconds: Double
        /// Peak resident set size of the child: `ru_maxrss`, or the sampled `VmHWM` when `ru_maxrss` is only this
        /// process's own peak, which Linux charges to a child spawned from a large parent (a test process).
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
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("measured-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let started = ContinuousClock.now
        let pid = try spawn(outputPath: captureOutput ? outputPath : "/dev/null")
        // posix_spawn returns once the child has exec'd, and the kernel then already charged this process's own
        // peak to the child's `ru_maxrss` (exec records the old, here shared, address space's high-water mark): a
        // figure at or below that is this process's, not the child's.
        let inheritedPeak = Self.highWaterMark(of: "self") ?? Int.max
        let timeout = self.timeout
        let (status, usage, sampledPeak) = try await BlockingWork.run { Self.wait(pid, started: started, timeout: timeout) }
        let wall = ContinuousClock.now - started
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        let output = captureOutput ? ((try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "") : ""
        return Usage(
            status: status,
            wallSeconds: Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18,
            cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
            peakRSSBytes: usage.ru_maxrss * 1024 > inheritedPeak ? usage.ru_maxrss * 1024 : sampledPeak ?? usage.ru_maxrss * 1024,
            output: output)
    }

    private func spawn(outputPath: String) throws -> pid_t {
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

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard code == 0 else { throw SpawnError(description: "\(executable): \(String(cString: strerror(code)))") }
        return pid
    }

    /// `VmHWM` of `/proc/<process>/status` in bytes: the peak resident set of that process's own address space.
    static func highWaterMark(of process: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return nil }
        return kilobytes * 1024
    }

    /// Waits for `pid`, sampling its own peak RSS every 5 ms (for when `ru_maxrss` only repeats this process's).
    private static func wait(_ pid: pid_t, started: ContinuousClock.Instant, timeout: Duration?) -> (Int32, rusage, Int?) {
        var status: Int32 = 0
        var usage = rusage()
        var sampledPeak: Int?
        while true {
            if let peak = highWaterMark(of: String(pid)) { sampledPeak = max(sampledPeak ?? 0, peak) }
            let result = wait4(pid, &status, WNOHANG, &usage)
            if result == pid { break }
            if result < 0 && errno != EINTR { return (-1, usage, sampledPeak) }
            if let timeout, ContinuousClock.now - started > timeout { kill(pid, SIGKILL) }
            usleep(5_000)
        }
        // WIFEXITED / WEXITSTATUS are macros Swift cannot see.
        let signal = status & 0x7f
        return (signal == 0 ? (status >> 8) & 0xff : 128 + signal, usage, sampledPeak)
    }
}
